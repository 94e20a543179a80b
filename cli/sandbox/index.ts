// The sandbox command's machinery: its options read, the sandbox started and served until a signal.
export { serveSandbox } from "./serve-sandbox.ts";
