/** Every figure a load comparison judges; the ledger waives one as `baseline.` + its id. No imports: the ledger reads it. */
export const FIGURE_IDS = [
  "events.p50",
  "events.p95",
  "events.p99",
  "token.p50",
  "events.failure-rate",
  "events.accepted-rate",
  "capacity",
] as const;

export type FigureId = (typeof FIGURE_IDS)[number];
