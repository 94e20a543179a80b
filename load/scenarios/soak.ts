// A long constant rate (default 30 min) with memory-friendly settings; add --out to stream metrics.
import { sleep } from "k6";
import { sendEvent } from "../lib/k6-vu.ts";
import { WARM_UP_INDEX } from "../lib/vu-client.ts";
import { warmUpDelaySeconds } from "../lib/warm-up.ts";

export { handleSummary } from "../lib/summary-export.ts";

// The warm-up scenario (scenario-plan.ts): each pre-allocated VU gets its first token before the rate starts.
export const warmUp = (): void => {
  sleep(warmUpDelaySeconds(__VU));
  sendEvent(0, WARM_UP_INDEX, true, false);
};

export default (): void => {
  sendEvent(__ITER, 0, true, false);
};
