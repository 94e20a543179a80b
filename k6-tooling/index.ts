// k6 from Node: the binary found or built, the scenarios bundled, k6 run and controlled, the files it reads written
// and the CSV it writes read, the k6-operator output. Light to import: esbuild, undici and the event generators load
// only when a run needs them.
export type { K6Binary } from "./binary/k6-binary.ts";
export {
  ensureK6,
  findK6,
  K6_HARNESS_EXTENSION,
  K6_SAMPLES_OUTPUT,
  pinnedK6Version,
} from "./binary/k6-binary.ts";
export { bundleLoadScenarios } from "./bundle/bundle-load.ts";
export { MAX_CSV_LINE_BYTES, openCsvLines } from "./csv/csv-lines.ts";
export { csvRecords } from "./csv/csv-records.ts";
export type { K6CsvTag } from "./csv/k6-csv-tags.ts";
export { k6CsvTagReader } from "./csv/k6-csv-tags.ts";
export { SAMPLES_FILE, SUMMARY_FILE } from "./operator/k6-operator-manifests.ts";
export { PLAN_FILE, PLAN_FORMAT, writeK6Operator } from "./operator/write-k6-operator.ts";
export type { EventsKind } from "./run/event-templates.ts";
export { EVENTS_KINDS } from "./run/event-templates.ts";
export { k6Connection } from "./run/k6-connection.ts";
export type { MetricSample } from "./run/k6-control.ts";
export { freeLoopbackPort, readMetrics, resume, waitUntilPaused } from "./run/k6-control.ts";
export type { CpuReadiness, CpuShare, K6CpuRecord } from "./run/k6-cpu.ts";
export { cpuShare, runningSince } from "./run/k6-cpu.ts";
export { k6Environment } from "./run/k6-environment.ts";
export type { K6Inputs } from "./run/k6-inputs.ts";
export { k6InputArgs, writeK6Inputs } from "./run/k6-inputs.ts";
export type { K6RunResult } from "./run/k6-runner.ts";
export { K6_EXIT, runK6 } from "./run/k6-runner.ts";
export { writeEventTemplates } from "./run/write-event-templates.ts";
