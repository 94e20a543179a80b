// The run command's machinery: settings, the parts' plan, their execution through the contract, load and rotation
// pipelines, and the one verdict. The command imports it only when it runs; each pipeline loads when its part runs.

export { runAll } from "./run-all.ts";
