import { CannotRunError } from "../../core/index.ts";
import type { CommandIo } from "../command.ts";
import { exitCodeOf } from "../exit-codes.ts";
import type { LoadOptionValues } from "../options/load-options.ts";
import { executeCapacity } from "./execute-capacity.ts";
import { executeLoad } from "./execute-load.ts";
import { readLoadOptions } from "./load-settings.ts";
import { prepareLoad } from "./prepare-load.ts";
import { recordCapacity } from "./record-capacity.ts";
import { recordLoad } from "./record-load.ts";
import { writeOperatorRun } from "./write-operator-run.ts";

/**
 * `event-harness load <scenario>`: reads the options once, prepares the run (target, bodies, bundle), executes it in
 * k6 and records it (reports, run.json, the exit code); with --k6-operator, writes it for the cluster instead.
 */
export async function runLoad(scenario: string, options: LoadOptionValues, io: CommandIo): Promise<number> {
  try {
    const checked = await readLoadOptions(scenario, options, io);
    const prepared = await prepareLoad(checked, io);
    try {
      if (prepared.operator) return await writeOperatorRun(prepared, io);
      // A capacity search is many k6 runs, each at the rate the ones before it call for.
      if (prepared.scenario === "capacity") {
        return await recordCapacity(prepared, await executeCapacity(prepared, io), io);
      }
      return await recordLoad(prepared, await executeLoad(prepared, io), io);
    } finally {
      await prepared.sandbox?.close();
    }
  } catch (error) {
    if (error instanceof CannotRunError) {
      io.stderr.write(`event-harness: ${error.message}\n`);
      return exitCodeOf(error);
    }
    throw error;
  }
}
