import { MAX_RUN_SECONDS } from "./duration.ts";

/**
 * The bounds of a run's settings: the scenarios read their environment against them and the CLI its options, so a
 * value the CLI takes is never one k6 refuses.
 */
export const RUN_BOUNDS = {
  /** Events per second. */
  rate: { min: 0.01, max: 100_000 },
  vus: { min: 1, max: 10_000 },
  /** k6 processes (or k6-operator runners) sharing a run as execution segments. */
  instances: { min: 1, max: 64 },
  durationSeconds: { min: 1, max: MAX_RUN_SECONDS },
  /** How early a client refreshes before expiry, and the 401 classifier's tolerance. */
  marginSeconds: { min: 0, max: 3600 },
  /** Each request's deadline. */
  timeoutSeconds: { min: 0.1, max: 600 },
} as const;
