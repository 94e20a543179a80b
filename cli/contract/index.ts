// The contract command's pipeline, which the run command calls too. Light to import: it loads vitest, the sandbox
// and the checks only when it runs.

export { reportContractRun } from "./report-contract-run.ts";
export { runContractSuite } from "./run-contract-suite.ts";
