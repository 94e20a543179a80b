export type { CutShort, RequestDeadline } from "./request-deadline.ts";
export { noAnswerWithin, requestDeadline } from "./request-deadline.ts";
export { defaultRunBudgetMs, probeReserveMs } from "./run-budget.ts";
export { RunDeadline } from "./run-deadline.ts";
