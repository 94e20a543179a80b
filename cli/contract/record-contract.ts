import packageJson from "../../package.json" with { type: "json" };
import type { ContractRun } from "../../reporting/contract/index.ts";
import type { CommandIo } from "../command.ts";
import { interruption } from "../interruption.ts";
import type { ContractExecution } from "./execute-contract.ts";
import type { PreparedContract } from "./prepare-contract.ts";
import { reportContractRun } from "./report-contract-run.ts";

/** Records the run: the ContractRun its reports are written from, judged with the ledger, and the exit code. */
export async function recordContract(
  prepared: PreparedContract,
  execution: ContractExecution,
  io: CommandIo,
): Promise<number> {
  const { profile, seed, started, reportDir, redactor, ledger } = prepared;
  // Measured before the reports' module loads, as the run ended when its checks did.
  const durationMs = Date.now() - started;
  const { describeTarget } = await import("../../reporting/contract/index.ts");
  const run: ContractRun = {
    tool: { name: packageJson.name, version: packageJson.version },
    suite: `contract (${profile})`,
    profile,
    seed,
    startedAt: new Date(started).toISOString(),
    durationMs,
    target: describeTarget(execution.target),
    checks: execution.checks,
    ...(io.signal.aborted ? { aborted: interruption(io.signal) } : {}),
    ...(execution.couldNotTest === undefined ? {} : { couldNotTest: execution.couldNotTest }),
    overrides: prepared.overrides,
    rerun: prepared.rerun,
  };
  return await reportContractRun(run, reportDir, redactor, io, ledger);
}
