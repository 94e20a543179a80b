import type { TokenRequestReason } from "./token-policy.ts";

/** Statuses the harness asks k6 to break rejected events down by; anything else is reported as `other`. */
export const OBSERVED_REJECTION_STATUSES = [
  "400",
  "401",
  "403",
  "404",
  "409",
  "413",
  "415",
  "422",
  "429",
  "500",
  "502",
  "503",
  "504",
  "network",
  "no-token",
] as const;

export const TOKEN_REASONS: readonly TokenRequestReason[] = [
  "initial",
  "idle",
  "lifetime",
  "rejected",
  "per-iteration",
];

/**
 * An always-true threshold the harness adds only so that k6 reports a sub-metric (k6 summarises tagged
 * sub-metrics only when a threshold names them); reports and verdicts leave these out.
 */
export const OBSERVE_EXPRESSION = "count>=0";

/** The same for a Trend sub-metric, where k6 allows no `count` (a duration is never negative). */
export const OBSERVE_TREND_EXPRESSION = "min>=0";

/** The same for a Rate sub-metric, which has only its rate. */
export const OBSERVE_RATE_EXPRESSION = "rate>=0";

/** Every always-true threshold of the harness: reports and verdicts leave them out. */
export const OBSERVE_EXPRESSIONS: readonly string[] = [
  OBSERVE_EXPRESSION,
  OBSERVE_TREND_EXPRESSION,
  OBSERVE_RATE_EXPRESSION,
];
