export type { CutShort, RequestDeadline } from "./request-deadline.ts";
export { noAnswerWithin, requestDeadline } from "./request-deadline.ts";
export { defaultRunBudgetMs, MAX_STRETCHED_RUN_MS, probeReserveMs } from "./run-budget.ts";
export { RunDeadline } from "./run-deadline.ts";
export { MAX_TIMER_DELAY_MS, timerDelay } from "./timer-delay.ts";
