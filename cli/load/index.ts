// The load command's machinery: option handling, the pre-run token check, the k6 runner, report rendering and
// scrubbing. Heavy to import (esbuild, faker, the sandbox, undici), so the command imports it only when it runs.

export type { K6Inputs } from "../../k6-tooling/index.ts";
export { k6Environment, k6InputArgs, writeK6Inputs } from "../../k6-tooling/index.ts";
export {
  mergeSummaries,
  percentile,
  readTrendSamples,
  renderRunReports,
  scrubDashboard,
  trendKeys,
} from "../../reporting/load/index.ts";
export { startLiveProgress } from "./live-progress.ts";
export type { LoadPartSettings, LoadSettings } from "./load-settings.ts";
export { loadPartOptionsFor, readLoadPartSettings, readLoadSettings } from "./load-settings.ts";
export type { InstanceOutput, MergedRun } from "./merge-instances.ts";
export { mergeInstances } from "./merge-instances.ts";
export { runLoad } from "./run-load.ts";
export { runLoadMerge } from "./run-load-merge.ts";
export type { SamplesOutput } from "./single-run-k6-args.ts";
export { samplesOutput, singleRunExtras } from "./single-run-k6-args.ts";
