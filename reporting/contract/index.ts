// The contract suite's reports: console summary, results.json, summary.md, JUnit.
export { renderConsoleSummary } from "./console-summary.ts";
export type { ContractRun, Verdict } from "./run-summary.ts";
export {
  countByStatus,
  describeCounts,
  describeTarget,
  INSECURE_WARNING,
  ROTATION_SUITE,
  verdictOf,
} from "./run-summary.ts";
export { REPORT_FILES, writeContractReports } from "./write-reports.ts";
