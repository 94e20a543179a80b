// Closed-model VUs alternate bursts with idle gaps planned from expires_in: a token must survive each short gap and
// have expired after each long one (probed by sending it as it is), which is what sliding expiry promises.
import { sleep } from "k6";
import type { IdleGapPlan } from "../lib/idle-gap-plan.ts";
import { gapBefore } from "../lib/idle-gap-plan.ts";
import { sendEvent, settings } from "../lib/k6-vu.ts";

export { handleSummary } from "../lib/summary-export.ts";

const plan: IdleGapPlan | undefined = settings.idleGap;
if (plan === undefined)
  throw new Error("idle-gap needs its gap plan in the VU settings (the harness writes it)");

export default (): void => {
  const iteration = __ITER;
  const gap = gapBefore(iteration);
  if (gap !== "none") sleep(gap === "short" ? plan.shortGapSeconds : plan.longGapSeconds);
  for (let index = 0; index < plan.burst; index += 1) {
    sendEvent(iteration, index, index === 0, index === 0 && gap === "long");
  }
};
