import { sleep } from "k6";
import { sendEvent } from "./k6-vu.ts";
import { WARM_UP_INDEX } from "./vu-client.ts";
import { warmUpDelaySeconds } from "./warm-up.ts";

/** The warm-up scenario's function (scenario-plan.ts): each pre-allocated VU gets its first token before the rate. */
export const warmUp = (): void => {
  sleep(warmUpDelaySeconds(__VU));
  sendEvent(0, WARM_UP_INDEX, true, false);
};
