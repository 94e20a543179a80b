import path from "node:path";
import { CannotRunError, countNoun, UsageError } from "../../core/index.ts";
import { PLAN_FILE, SAMPLES_FILE, SUMMARY_FILE } from "../../k6-tooling/index.ts";
import { renderRunReports } from "../../reporting/load/index.ts";
import { notRegularFile } from "../../transport/index.ts";
import { resolveLedger } from "../accepted-ledger.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { ExitCode, exitCodeOf } from "../exit-codes.ts";
import type { LoadMergeOptionValues } from "../options/load-merge-options.ts";
import { claimReportDir, createReportDir } from "../report-dir.ts";
import { mergeInstances } from "./merge-instances.ts";
import { readOperatorPlan } from "./operator-plan.ts";

/**
 * `event-harness load-merge <runner-dir>…`: merges the outputs k6-operator's runners left (each directory holds one
 * runner's summary.json and samples.csv.gz) into one summary, verdict and set of reports, as `load --instances`
 * does; the run's context comes from the plan.json `load --k6-operator` wrote.
 */
export async function runLoadMerge(
  dirs: readonly string[],
  options: LoadMergeOptionValues,
  io: CommandIo,
): Promise<number> {
  const planFile = path.resolve(options.plan ?? PLAN_FILE);
  const plan = await readOperatorPlan(planFile);
  if (dirs.length !== plan.parallelism) {
    io.stderr.write(
      `event-harness: the plan ran ${countNoun(plan.parallelism, "runner")} but ${dirs.length} output director${dirs.length === 1 ? "y was" : "ies were"} given; no verdict from part of a run\n`,
    );
    return ExitCode.undecided;
  }
  const ledger = await resolveLedger(options.accepted, io.env);
  const outputs = dirs.map((dir) => ({
    segment: path.basename(path.resolve(dir)),
    summaryFile: path.join(dir, SUMMARY_FILE),
    samplesFile: path.join(dir, SAMPLES_FILE),
  }));
  // A FIFO or a directory where a runner's output belongs was put there, not left by k6: a usage error, refused
  // before anything is read (the samples are streamed). A missing summary stays "no verdict", as a failed runner.
  for (const file of outputs.flatMap((output) => [output.summaryFile, output.samplesFile])) {
    const problem = await notRegularFile(file);
    if (problem !== undefined)
      throw new UsageError("invalid-value", `${displayPath(file)}: ${problem}`, "load-merge");
  }
  // A merge of its own, as every run's reports: a rerun never writes over an earlier merge.
  const reportDir =
    options["report-dir"] === undefined
      ? await createReportDir(path.dirname(planFile), "merged", "load-merge")
      : await claimReportDir(options["report-dir"], "--report-dir", "load-merge");
  try {
    const merged = await mergeInstances(outputs, reportDir);
    const reports = await renderRunReports(
      reportDir,
      { ...plan.context, instances: merged.instances },
      undefined,
      undefined,
      ledger,
    );
    if (reports === undefined) return ExitCode.undecided;
    io.stdout.write(reports.text);
    io.stdout.write(`Reports: ${displayPath(reportDir)}/summary.md, summary.json, junit.xml\n`);
    if (reports.failedThresholds.length > 0) {
      io.stderr.write(
        `event-harness: thresholds failed on the merged data: ${reports.failedThresholds.map((t) => `${t.metric} ${t.expression}${t.observed ? ` (${t.observed})` : ""}`).join("; ")}\n`,
      );
      return ExitCode.failed;
    }
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CannotRunError) {
      io.stderr.write(`event-harness: ${error.message}\n`);
      return exitCodeOf(error);
    }
    throw error;
  }
}
