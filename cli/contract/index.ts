// The contract command's pipeline, which the run command calls too. Light to import: it loads vitest, the sandbox
// and the checks only when it runs.

export type { ContractOptionValues } from "./prepare-contract.ts";
export { reportContractRun } from "./report-contract-run.ts";
export { runContractSuite } from "./run-contract-suite.ts";
