import { FIGURE_IDS } from "../compare/figure-ids.ts";

/** Load gates are named `load.` + the threshold's metric (`load.events_failed`); contract checks by their own id. */
export const LOAD_GATE_PREFIX = "load.";

/** A baseline comparison's figures are named `baseline.` + the figure (`baseline.events.p95`). */
export const BASELINE_GATE_PREFIX = "baseline.";

/** Every baseline figure a ledger may name. */
export const BASELINE_GATE_IDS: readonly string[] = FIGURE_IDS.map((id) => `${BASELINE_GATE_PREFIX}${id}`);

/** Accepts every sliding-expiry gate at once: what a fixed-lifetime server (Keycloak) fails. */
export const SLIDING_EXPIRY_GATE = "load.sliding-expiry";

/**
 * What no ledger may waive: the redirect gate (credentials must never follow one) and the API's authentication
 * refusals, the old secret's among them (a rotation whose old secret still works, or an overlap that is not the one
 * stated with --expect-old). A server that lets these through is never released, however well its failure is
 * documented.
 */
export const NEVER_WAIVED: readonly string[] = [
  "load.redirects",
  "bearer.missing",
  "bearer.garbage",
  "bearer.other-scheme",
  "bearer.truncated",
  "bearer.tampered",
  "bearer.alg-none",
  "bearer.foreign-key",
  "token.wrong-secret-refused",
  "token.unknown-client-refused",
  "token.grant-type-enforced",
  "rotation.old-secret",
];

const EXPIRY_METRIC = "token_expiries";

export function isLoadGateId(id: string): boolean {
  return id.startsWith(LOAD_GATE_PREFIX);
}

export function isBaselineGateId(id: string): boolean {
  return id.startsWith(BASELINE_GATE_PREFIX);
}

/** Whether an entry names a contract check: neither a load gate nor a baseline figure. */
export function isContractId(id: string): boolean {
  return !isLoadGateId(id) && !isBaselineGateId(id);
}

/** The gate id of a threshold's metric, as reports and the ledger write it. */
export function loadGateId(metric: string): string {
  return `${LOAD_GATE_PREFIX}${metric}`;
}

/** Whether a ledger id names this threshold metric, directly or through the sliding-expiry group. */
export function gateMatches(id: string, metric: string): boolean {
  if (id === loadGateId(metric)) return true;
  return id === SLIDING_EXPIRY_GATE && isExpiryMetric(metric);
}

/** The sliding-expiry thresholds: `token_expiries{kind:…}`. */
export function isExpiryMetric(metric: string): boolean {
  return metric === EXPIRY_METRIC || metric.startsWith(`${EXPIRY_METRIC}{`);
}
