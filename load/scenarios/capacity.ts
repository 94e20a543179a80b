// One step of a capacity search: a constant arrival rate with an unjudged warm-up, then the judged stretch (open
// model). The harness runs one k6 process per step and picks each step's rate from the ones before it.
import { sendEvent } from "../lib/k6-vu.ts";

export { handleSummary } from "../lib/summary-export.ts";

export default (): void => {
  sendEvent(__ITER, 0, true, false);
};
