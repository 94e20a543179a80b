// Many VUs start at once and, by default, each iteration obtains a new token and uses it once: the token endpoint
// under load. A fresh token rejected by the API counts as an unexpected expiry.
import { sendEvent } from "../lib/k6-vu.ts";

export { handleSummary } from "../lib/summary-export.ts";

export default (): void => {
  sendEvent(__ITER, 0, true, false);
};
