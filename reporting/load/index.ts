// The load run's reports, rendered in Node from k6's end-of-test summary.
export type { CapacityReport, CapacitySearchShape } from "./capacity-report.ts";
export {
  describeResolution,
  renderCapacityJson,
  renderCapacityJunit,
  renderCapacityMarkdown,
  renderCapacityText,
} from "./capacity-report.ts";
export type { CapacityFigure, CapacityStop } from "./capacity-result.ts";
export {
  brokenByText,
  capacityClause,
  capacityFigure,
  capacityLoadResult,
  describeStop,
  searchedSteps,
} from "./capacity-result.ts";
export type { CapacityStepOutcome, CapacityStepPlan, CapacityStepResult } from "./capacity-step.ts";
export { judgeCapacityStep } from "./capacity-step.ts";
export type { GeneratorUsage, GeneratorVerdict } from "./generator-limit.ts";
export { generatorHeadline } from "./generator-limit.ts";
export { mergeSummaries, trendKeys } from "./merge-summaries.ts";
export type { ReportAddition } from "./render-reports.ts";
export { renderReports } from "./render-reports.ts";
export type { InstanceTotals, ReportContext } from "./report-context.ts";
export { reportContext } from "./report-context.ts";
export type { ReportFacts } from "./report-facts.ts";
export { instanceTotals, reportFacts } from "./report-facts.ts";
export { scrubDashboard, scrubReports } from "./report-scrub.ts";
export type { RunReports } from "./run-reports.ts";
export { renderRunReports } from "./run-reports.ts";
export type { BaselineVerdict, LoadOutcome, LoadResult, RunEnding, RunFacts } from "./run-result.ts";
export { describeResult, FINISHED, loadResult, namedThresholds, OUTCOME_TITLE } from "./run-result.ts";
export type { SummaryData, SummaryMetric, ThresholdResult } from "./summary-data.ts";
export { thresholdResults } from "./summary-data.ts";
export { percentile, readTrendSamples } from "./trend-samples.ts";
export type { SlidingExpiryVerdict, VerdictLevel } from "./verdict.ts";
