// The token warm-up before a constant rate (scenario-plan.ts plans it, the scenario modules run it): no imports, so
// a k6 bundle that runs it carries nothing else.

/** The k6 scenario name of the warm-up, and the function it runs (exported by the scenario module). */
export const WARM_UP_SCENARIO = "warm_up";
export const WARM_UP_EXEC = "warmUp";

/**
 * Long enough for every pre-allocated VU's first token from a loopback or nearby target; a VU still without one
 * when the rate starts fetches it before its first event, as it would without a warm-up.
 */
export const WARM_UP_SECONDS = 2;

/**
 * VUs start their warm-up token requests in this many slots spread over the first half of the warm-up, so neither
 * the token endpoint nor k6 takes every VU's request (and its garbage) in the same instant.
 */
export const WARM_UP_SLOTS = 20;

/** The delay before VU `vu` (1-based, k6's __VU) fetches its warm-up token, seconds. */
export const warmUpDelaySeconds = (vu: number): number =>
  (((vu - 1) % WARM_UP_SLOTS) * WARM_UP_SECONDS) / 2 / WARM_UP_SLOTS;
