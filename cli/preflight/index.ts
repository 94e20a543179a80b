// The preflight before any judging, shared by contract, run and load: what stands in the way is said once.
export type { PreflightOptions, TargetReady } from "./diagnose-target.ts";
export { diagnoseTarget, diagnoseToken, switchedNote } from "./diagnose-target.ts";
export type { PreflightCredential } from "./token-attempt.ts";
export { tokenUrlHint } from "./token-url-hint.ts";
