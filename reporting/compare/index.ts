// Comparing a run with a baseline: the statistics (pure), the load record a run keeps, and how a comparison reads.

export { compareCapacity } from "./compare-capacity.ts";
export type {
  ContractCheckChange,
  ContractCheckRecord,
  ContractComparison,
  ContractRunRecord,
} from "./compare-contract.ts";
export { compareContract } from "./compare-contract.ts";
export type { CompareOptions, FigureComparison, LoadComparison } from "./compare-load.ts";
export {
  compareLoad,
  compareLoadInterruptibly,
  comparisonStatus,
  DEFAULT_COMPARE_OPTIONS,
  MAX_WINDOWS,
  notJudged,
} from "./compare-load.ts";
export type { ComparisonStatus, FailOn, FigureStatus, GateStatus } from "./comparison-status.ts";
export { FAIL_ON_CHOICES, failsRun } from "./comparison-status.ts";
export type { FigureId } from "./figure-ids.ts";
export { FIGURE_IDS } from "./figure-ids.ts";
export type { ChangeFloor } from "./judge-shift.ts";
export { bucketMiddle, LatencyHistogram, MAX_BUCKET_INDEX } from "./latency-histogram.ts";
export type {
  CapacityRecord,
  LoadRecord,
  LoadRecordSettings,
  TargetRecord,
  UnitRecord,
} from "./load-record.ts";
export {
  comparisonNotes,
  LOAD_RECORD_FORMAT,
  settingsDifferences,
  targetMismatches,
  unitMsFor,
  warmUpUnitsFor,
} from "./load-record.ts";
export type { LoadRecordReading } from "./load-record-schema.ts";
export { claimsLoadRecord, parseLoadRecord } from "./load-record-schema.ts";
export { readLoadUnits } from "./read-load-record.ts";
export {
  comparisonJunitSuite,
  comparisonLine,
  renderComparisonMarkdown,
  renderComparisonText,
  renderContractComparisonText,
} from "./render-comparison.ts";
