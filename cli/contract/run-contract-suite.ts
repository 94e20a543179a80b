import { ContractRunError } from "../../core/index.ts";
import type { CommandIo } from "../command.ts";
import { exitCodeOf } from "../exit-codes.ts";
import type { ContractOptionValues } from "../options/contract-options.ts";
import { executeContract } from "./execute-contract.ts";
import { prepareContract, readContractOptions } from "./prepare-contract.ts";
import { recordContract } from "./record-contract.ts";

/**
 * `event-harness contract`: reads the options once (target, ledger, report directory), prepares the run (the
 * embedded sandbox when no target is given), executes the suite and records it (reports, the exit code).
 */
export async function runContractSuite(options: ContractOptionValues, io: CommandIo): Promise<number> {
  const prepared = await prepareContract(await readContractOptions(options, io));
  try {
    return await recordContract(prepared, await executeContract(prepared, io), io);
  } catch (error) {
    if (error instanceof ContractRunError) {
      io.stderr.write(`event-harness: ${error.message}\n`);
      return exitCodeOf(error);
    }
    throw error;
  } finally {
    await prepared.sandbox?.close();
  }
}
