// Comparing a run with a baseline: the statistics (pure), the load record a run keeps, and how a comparison reads.
export type { ContractCheckChange, ContractCheckRecord, ContractComparison } from "./compare-contract.ts";
export { compareContract } from "./compare-contract.ts";
export type { CompareOptions, FigureComparison, FigureId, LoadComparison } from "./compare-load.ts";
export { compareLoad, comparisonStatus, DEFAULT_COMPARE_OPTIONS } from "./compare-load.ts";
export type { ComparisonStatus, GateStatus } from "./comparison-status.ts";
export { failsRun } from "./comparison-status.ts";
export type { ChangeFloor } from "./judge-shift.ts";
export type { LoadRecord, LoadRecordSettings, UnitRecord } from "./load-record.ts";
export { LOAD_RECORD_FORMAT, settingsDifferences, unitMsFor, warmUpUnitsFor } from "./load-record.ts";
export { readLoadUnits } from "./read-load-record.ts";
export {
  comparisonJunitSuite,
  renderComparisonMarkdown,
  renderComparisonText,
  renderContractComparisonText,
} from "./render-comparison.ts";
