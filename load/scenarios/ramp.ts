// Arrival rate ramps from 1/s to --rate over half the run, holds, then ramps down (open model).
import { sendEvent } from "../lib/k6-vu.ts";

export { handleSummary } from "../lib/summary-export.ts";

export default (): void => {
  sendEvent(__ITER, 0, true, false);
};
