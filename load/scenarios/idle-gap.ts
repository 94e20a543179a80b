// Closed-model VUs hold one token per cycle through idle gaps planned from expires_in (idle-gap-plan.ts): it must
// survive a gap between half of expires_in and expires_in, stay valid while used past expires_in after its issue, and
// have expired after a long gap. The first event after every gap sends the held token as it is (a probe).
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
  const gap = gapBefore(iteration, plan.shortGaps);
  if (gap !== "none") {
    sleep(gap === "mid" ? plan.midGapSeconds : gap === "short" ? plan.shortGapSeconds : plan.longGapSeconds);
  }
  for (let index = 0; index < plan.burst; index += 1) {
    sendEvent(iteration, index, index === 0, index === 0 && gap !== "none");
  }
};
