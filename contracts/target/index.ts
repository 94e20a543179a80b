export { Redactor } from "./redactor.ts";
export { Secret } from "./secret.ts";
export type { Target } from "./target.ts";
export { eventsUrl, tokenUrl } from "./target.ts";
