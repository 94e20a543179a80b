import { Counter, Rate, Trend } from "k6/metrics";
import { METRIC } from "./metric-names.ts";

/**
 * Adds a sample to each custom metric. Created in the init context of every VU (k6 merges same-named metrics); a VU
 * keeps only each metric's bound `add` (the metric objects would cost it ~0.6 KB more each). Only one custom Trend,
 * for token latency, because Trends keep every sample in memory.
 */
export const record = {
  tokenRequest: new Counter(METRIC.tokenRequests).add,
  tokenRequestDuration: new Trend(METRIC.tokenRequestDuration, true).add,
  tokenRequestFailure: new Counter(METRIC.tokenRequestFailures).add,
  tokenRefresh: new Counter(METRIC.tokenRefreshes).add,
  unexpectedExpiry: new Counter(METRIC.unexpectedExpiries).add,
  idleExpiry: new Counter(METRIC.idleExpiries).add,
  idleOutlived: new Counter(METRIC.idleOutlived).add,
  eventRejected: new Counter(METRIC.eventsRejected).add,
  eventFailed: new Rate(METRIC.eventsFailed).add,
};
