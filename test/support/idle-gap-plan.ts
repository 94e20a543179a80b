import type { IdleGapPlan } from "../../load/index.ts";

/** An idle-gap plan of 2 cycles (a 1.4 s gap, 3 of 0.5 s, one of 3.2 s, bursts of 3), as reports and verdicts read it. */
export const idleGapPlan: IdleGapPlan = {
  shortGapSeconds: 0.5,
  shortGaps: 3,
  midGapSeconds: 1.4,
  longGapSeconds: 3.2,
  cycles: 2,
  burst: 3,
  iterationsPerVu: 20,
  idleSecondsPerVu: 12,
};
