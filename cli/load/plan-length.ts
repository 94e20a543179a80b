import { CannotRunError } from "../../core/index.ts";
import { formatDuration } from "../../reporting/index.ts";
import { MAX_TIMER_DELAY_MS } from "../../transport/deadline/index.ts";

/**
 * Refuses a plan whose watchdog (`watchdogSeconds`, the plan's longest run plus slack) no Node timer can hold: the
 * harness could not stop such a run on time. Only the target's expires_in makes a plan that long (idle-gap waits
 * past it), so the refusal names it; the run is undecided (exit 3), not a verdict on the target.
 */
export function checkPlanLength(scenario: string, watchdogSeconds: number, expiresInSeconds: number): void {
  if (watchdogSeconds * 1000 <= MAX_TIMER_DELAY_MS) return;
  throw new CannotRunError(
    `with the target's expires_in of ${expiresInSeconds} s, ${scenario} would run for up to ${formatDuration(watchdogSeconds * 1000)}; ` +
      `the harness runs k6 for at most ${formatDuration(MAX_TIMER_DELAY_MS)}`,
  );
}
