import { checkThreshold, METRIC } from "../../load/index.ts";
import type { SummaryData, ThresholdResult } from "./summary-data.ts";
import { count } from "./summary-data.ts";

/** Rejections no answer of the target stands behind: none came (`network`), or the client held no token to send. */
export const UNANSWERED_REJECTIONS = ["network", "no-token"] as const;

/** A run's or a step's events, and how many of those not accepted the target never answered. */
export interface AnsweredCounts {
  readonly accepted: number;
  readonly rejected: number;
  /** Rejections of UNANSWERED_REJECTIONS; counted over the whole run or step, so never fewer than the judged ones. */
  readonly unanswered: number;
}

/** The rejections of a run or step that the target never answered, from k6's `events_rejected{status:…}`. */
export function unansweredRejections(data: SummaryData): number {
  return UNANSWERED_REJECTIONS.reduce(
    (total, status) => total + count(data, `${METRIC.eventsRejected}{status:${status}}`),
    0,
  );
}

/**
 * The crossed failure objective (`events_failed`) the target's own answers cross: a 503 that sheds load or a 500 is
 * the target's, which a slow or starved load generator cannot cause, so these failures prove the target broke
 * whatever k6 did. Every rejection without an answer is taken off first, as if it were k6's own lateness; undefined
 * when what remains keeps the objective.
 */
export function brokenByAnswers(
  crossed: readonly ThresholdResult[],
  counts: AnsweredCounts,
): ThresholdResult | undefined {
  const events = counts.accepted + counts.rejected;
  if (events === 0) return undefined;
  const rate = Math.max(0, counts.rejected - counts.unanswered) / events;
  return crossed.find(
    (threshold) =>
      threshold.metric === METRIC.eventsFailed && checkThreshold(threshold.expression, { rate }) === false,
  );
}

/** The verdict's clause for failures the target answered: what they prove, and what k6's limit did not change. */
export function answeredClause(objective: ThresholdResult, counts: AnsweredCounts): string {
  const answered = Math.max(0, counts.rejected - counts.unanswered);
  return `the API answered ${answered} of ${counts.accepted + counts.rejected} events with an error, which crosses ${objective.metric} ${objective.expression} whatever the load generator did`;
}
