import { Counter, Rate } from "k6/metrics";
import { METRIC } from "./metric-names.ts";

/**
 * Adds a sample to each custom metric. Created in the init context of every VU (k6 merges same-named metrics); a VU
 * keeps only each metric's bound `add` (the metric objects would cost it ~0.6 KB more each). No custom Trend: token
 * latency is k6's own http_req_duration{endpoint:token}.
 */
export const record = {
  tokenRequest: new Counter(METRIC.tokenRequests).add,
  expiry: new Counter(METRIC.expiries).add,
  eventRejected: new Counter(METRIC.eventsRejected).add,
  eventFailed: new Rate(METRIC.eventsFailed).add,
  redirect: new Counter(METRIC.redirects).add,
};
