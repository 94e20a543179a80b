/** Load gates are named `load.` + the threshold's metric (`load.events_failed`); contract checks by their own id. */
export const LOAD_GATE_PREFIX = "load.";

/** Accepts every sliding-expiry gate at once: what a fixed-lifetime server (Keycloak) fails. */
export const SLIDING_EXPIRY_GATE = "load.sliding-expiry";

const EXPIRY_METRIC = "token_expiries";

export function isLoadGateId(id: string): boolean {
  return id.startsWith(LOAD_GATE_PREFIX);
}

/** The gate id of a threshold's metric, as reports and the ledger write it. */
export function loadGateId(metric: string): string {
  return `${LOAD_GATE_PREFIX}${metric}`;
}

/** Whether a ledger id names this threshold metric, directly or through the sliding-expiry group. */
export function gateMatches(id: string, metric: string): boolean {
  if (id === loadGateId(metric)) return true;
  return id === SLIDING_EXPIRY_GATE && (metric === EXPIRY_METRIC || metric.startsWith(`${EXPIRY_METRIC}{`));
}
