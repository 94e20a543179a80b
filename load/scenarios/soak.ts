// A long constant rate (default 30 min) with memory-friendly settings; add --out to stream metrics.
import { sendEvent } from "../lib/k6-vu.ts";

export { warmUp } from "../lib/k6-warm-up.ts";
export { handleSummary } from "../lib/summary-export.ts";

export default (): void => {
  sendEvent(__ITER, 0, true, false);
};
