// The run report (Node only): per-second series from k6, the self-contained HTML page, and the CI summary.

export type { CapacityDigest, CapacityStepDigest } from "./capacity-page.ts";
export { digestCapacity, renderCapacityBody, renderCapacityPage } from "./capacity-page.ts";
export type { PartJunit } from "./combined-junit.ts";
export { renderCombinedJunit } from "./combined-junit.ts";
export type { LeadItem, PartLead } from "./failure-leads.ts";
export { describeLeadItem, failureLeads } from "./failure-leads.ts";
export { aggregateK6Csv, readK6CsvFile } from "./k6-time-series.ts";
export type { LoadSummary } from "./load-summary.ts";
export { digestLoadSummary } from "./load-summary.ts";
export type { BaselineComparisonFile, PartDetails } from "./part-details.ts";
export { BASELINE_COMPARISON_FILE, readPartDetails, TIME_SERIES_FILE } from "./part-details.ts";
export { renderHtmlReport } from "./render-html-report.ts";
export type { PartKind, PartOutcome, PartVerdict, RunOutcome, RunVerdict } from "./run-outcome.ts";
export { combineVerdicts, partVerdictOf, RUN_VERDICT_TITLE } from "./run-outcome.ts";
export { renderRunSummaryMarkdown } from "./run-summary-markdown.ts";
export type { TimeSeries } from "./time-series.ts";
export { ratePerSecond, TIME_SERIES_FORMAT } from "./time-series.ts";
export { RUN_REPORT_FILES, writeRunReport } from "./write-run-report.ts";
export { writeTimeSeriesFromK6Csv } from "./write-time-series.ts";
