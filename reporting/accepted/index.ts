// The ledger of accepted deviations: which failing checks and load gates a team accepts, why, and until when.
export { applyToChecks } from "./apply-to-checks.ts";
export type { AcceptedComparison } from "./apply-to-comparison.ts";
export { applyToComparison } from "./apply-to-comparison.ts";
export { applyToThresholds } from "./apply-to-thresholds.ts";
export type { OutcomeFacts } from "./describe-outcomes.ts";
export {
  describeOutcomes,
  ledgerNote,
  staleWaiverClause,
  staleWaivers,
  staleWaiverWarning,
} from "./describe-outcomes.ts";
export type { EntryOutcome, EntryState } from "./entry-outcome.ts";
export {
  BASELINE_GATE_IDS,
  BASELINE_GATE_PREFIX,
  isBaselineGateId,
  isLoadGateId,
  LOAD_GATE_PREFIX,
  loadGateId,
  NEVER_WAIVED,
  SLIDING_EXPIRY_GATE,
} from "./gate-ids.ts";
export type { Ledger, LedgerEntry, LedgerScope } from "./ledger.ts";
export { LEDGER_ENVIRONMENT_NAME, LEDGER_FILE_SCHEMA, utcDay } from "./ledger.ts";
export type { LedgerProblem, LedgerReading } from "./read-ledger.ts";
export { CONTRACT_CHECK_IDS, LEDGER_IDS, parseLedger, readLedger } from "./read-ledger.ts";
