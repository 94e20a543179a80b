import path from "node:path";
import { CannotRunError, countNoun, UsageError } from "../../core/index.ts";
import { SAMPLES_FILE, SUMMARY_FILE } from "../../k6-tooling/operator/k6-operator-manifests.ts";
import type { OperatorPlanFile } from "../../k6-tooling/operator/write-k6-operator.ts";
import { PLAN_FILE, PLAN_FORMAT } from "../../k6-tooling/operator/write-k6-operator.ts";
import type { ReportContext } from "../../reporting/load/index.ts";
import { renderRunReports } from "../../reporting/load/run-reports.ts";
import { readInputFile } from "../../transport/index.ts";
import { resolveLedger } from "../accepted-ledger.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { ExitCode, exitCodeOf } from "../exit-codes.ts";
import { prepareWritableDir } from "../writable-dir.ts";
import { mergeInstances } from "./merge-instances.ts";

export interface LoadMergeOptions {
  plan?: string;
  "report-dir"?: string;
  accepted?: string;
}

async function readPlan(file: string): Promise<OperatorPlanFile<ReportContext>> {
  const reading = await readInputFile(file);
  if (!reading.ok) throw new UsageError("invalid-value", `--plan ${file}: ${reading.problem}`, "load-merge");
  let plan: OperatorPlanFile<ReportContext>;
  try {
    plan = JSON.parse(reading.text) as OperatorPlanFile<ReportContext>;
  } catch (error) {
    throw new UsageError("invalid-value", `--plan ${file}: ${(error as Error).message}`, "load-merge");
  }
  if (plan.format !== PLAN_FORMAT) {
    throw new UsageError("invalid-value", `--plan ${file} is not a ${PLAN_FORMAT} file`, "load-merge");
  }
  return plan;
}

/**
 * `event-harness load-merge <runner-dir>…`: merges the outputs k6-operator's runners left (each directory holds one
 * runner's summary.json and samples.csv.gz) into one summary, verdict and set of reports, as `load --instances`
 * does; the run's context comes from the plan.json `load --k6-operator` wrote.
 */
export async function runLoadMerge(
  dirs: readonly string[],
  options: LoadMergeOptions,
  io: CommandIo,
): Promise<number> {
  const planFile = path.resolve(options.plan ?? PLAN_FILE);
  const plan = await readPlan(planFile);
  if (dirs.length !== plan.parallelism) {
    io.stderr.write(
      `event-harness: the plan ran ${countNoun(plan.parallelism, "runner")} but ${dirs.length} output director${dirs.length === 1 ? "y was" : "ies were"} given; no verdict from part of a run\n`,
    );
    return ExitCode.undecided;
  }
  const ledger = await resolveLedger(options.accepted, io.env);
  const reportDir = await prepareWritableDir(
    options["report-dir"] ?? path.join(path.dirname(planFile), "merged"),
    "--report-dir",
    "load-merge",
  );
  try {
    const merged = await mergeInstances(
      dirs.map((dir) => ({
        segment: path.basename(path.resolve(dir)),
        summaryFile: path.join(dir, SUMMARY_FILE),
        samplesFile: path.join(dir, SAMPLES_FILE),
      })),
      reportDir,
    );
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
