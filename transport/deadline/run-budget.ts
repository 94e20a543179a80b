/** Every run gets this much, whatever the timeout: start-up and the fast checks' few dozen exchanges. */
const BASE_MS = 120_000;
/** ...plus this many request timeouts, so a slow but answering target still gets its verdict. */
const TIMEOUTS = 12;

/** The default allowance of a run before any sliding-expiry probe asks for more (fast profile: all of it). */
export function defaultRunBudgetMs(timeoutMs: number): number {
  return BASE_MS + TIMEOUTS * timeoutMs;
}

/** What a sliding-expiry probe reserves past its horizon: its last few exchanges and a little slack. */
export function probeReserveMs(timeoutMs: number): number {
  return 4 * timeoutMs + 10_000;
}

/**
 * The furthest a sliding-expiry probe may stretch a deadline the user did not fix: a target whose expires_in needs
 * longer is not waited for (those checks are ERROR); --run-timeout allows more.
 */
export const MAX_STRETCHED_RUN_MS = 3 * 60 * 60 * 1000;
