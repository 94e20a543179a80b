// The token command's machinery: one fresh token of the target, taken as the preflight takes one.
export { printToken } from "./print-token.ts";
