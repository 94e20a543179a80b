// The k6 command's machinery: the k6 the load command would use, found or built.
export { showK6 } from "./show-k6.ts";
