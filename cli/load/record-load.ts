import { writeFile } from "node:fs/promises";
import path from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import type { LoadResult } from "../../reporting/load/index.ts";
import { describeResult, loadResult, renderRunReports, scrubReports } from "../../reporting/load/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { loadExitCode } from "../exit-codes.ts";
import { existingFiles } from "./existing-files.ts";
import type { LoadExecution } from "./load-execution.ts";
import type { PreparedLoad } from "./prepare-load.ts";

/** run.json: what ran against what, how it ended and the verdict, never a credential. */
export async function writeRunJson(
  prepared: PreparedLoad,
  execution: Pick<LoadExecution, "facts">,
  verdict: LoadResult,
): Promise<void> {
  const record = {
    tool: { name: packageJson.name, version: packageJson.version },
    k6: prepared.k6.version,
    scenario: prepared.scenario,
    runId: prepared.runId,
    seed: prepared.settings.seed,
    events: prepared.settings.events,
    target: prepared.targetRecord,
    ...(prepared.context.overrides === undefined ? {} : { overrides: prepared.context.overrides }),
    sandboxFaults: prepared.faults,
    startedAt: prepared.started.toISOString(),
    finishedAt: new Date().toISOString(),
    result: { outcome: verdict.outcome, reason: verdict.reason ?? null, verdict: describeResult(verdict) },
    ...execution.facts,
  };
  await writeFile(path.join(prepared.reportDir, "run.json"), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * Records a load run: renders the reports from k6's summary, prints the verdict, scrubs the reports, writes
 * run.json, names the files written and maps the verdict to an exit code.
 */
export async function recordLoad(
  prepared: PreparedLoad,
  execution: LoadExecution,
  io: CommandIo,
): Promise<number> {
  const { reportDir } = prepared;
  const reports =
    execution.context === undefined
      ? undefined
      : await renderRunReports(
          reportDir,
          execution.context,
          execution.ending,
          execution.compared?.addition,
          prepared.ledger,
        );
  const verdict = reports?.result ?? loadResult(undefined, execution.ending, prepared.ledger);
  if (reports !== undefined) io.stdout.write(reports.text);
  else io.stdout.write(`\n  ${describeResult(verdict)}\n\n`);
  if (execution.compared !== undefined) io.stdout.write(`${execution.compared.text}\n`);
  await prepared.baselineStep.save(verdict, (text) => io.stderr.write(text));
  const leaked = await scrubReports(reportDir, prepared.reportNet);
  if (leaked.length > 0)
    io.stderr.write(`event-harness: warning: redacted secrets found in ${leaked.join(", ")}\n`);
  await writeRunJson(prepared, execution, verdict);
  const written = await existingFiles(reportDir, execution.listed);
  io.stdout.write(`Reports: ${displayPath(reportDir)}/${written.join(", ")}${execution.reportsNote}\n`);
  const closing = execution.closing(verdict);
  if (closing !== undefined) io.stderr.write(closing);
  if (verdict.regressed.length > 0) {
    io.stderr.write(`event-harness: REGRESSED against the baseline: ${verdict.regressed.join("; ")}\n`);
  }
  return loadExitCode(verdict);
}
