// Constant arrival rate of event creations (open model): --rate events/s for --duration; dropped iterations are guarded.
// The executor and thresholds reach k6 as a --config file the harness writes: VUs build no options.
import { sendEvent } from "../lib/k6-vu.ts";

export { warmUp } from "../lib/k6-warm-up.ts";
export { handleSummary } from "../lib/summary-export.ts";

export default (): void => {
  sendEvent(__ITER, 0, true, false);
};
