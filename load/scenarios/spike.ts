// A base rate, a sudden spike to five times it, and back (open model): does token handling survive the surge?
import { sendEvent } from "../lib/k6-vu.ts";

export { handleSummary } from "../lib/summary-export.ts";

export default (): void => {
  sendEvent(__ITER, 0, true, false);
};
