/** Node keeps a timer's delay in a signed 32-bit integer: a longer one fires after 1 ms (TimeoutOverflowWarning). */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * A delay every Node timer (setTimeout, timers/promises, vitest's test timeouts) takes as given: never negative,
 * never past MAX_TIMER_DELAY_MS, so a far deadline fires late rather than at once; callers re-arm until it is due.
 */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return Math.min(ms, MAX_TIMER_DELAY_MS);
}
