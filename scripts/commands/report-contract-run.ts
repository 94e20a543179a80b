import type { ContractRun, Redactor } from "../../contracts/index.ts";
import type { CommandIo } from "../cli/command.ts";
import { displayPath } from "../cli/display-path.ts";
import { ExitCode } from "../cli/exit-codes.ts";

/** Writes the reports, prints the console summary, and turns the verdict into the exit code. */
export async function reportContractRun(
  run: ContractRun,
  reportDir: string,
  redactor: Redactor,
  io: CommandIo,
): Promise<number> {
  const { renderConsoleSummary, verdictOf, writeContractReports } = await import("../../contracts/index.ts");
  const files = await writeContractReports(run, reportDir, redactor);
  io.stdout.write(redactor.redact(renderConsoleSummary(run)));
  io.stdout.write(`Reports: ${files.map(displayPath).join(", ")}\n`);
  const verdict = verdictOf(run);
  return verdict === "failed" ? ExitCode.failed : verdict === "passed" ? ExitCode.ok : ExitCode.undecided;
}
