import { writeFile } from "node:fs/promises";
import path from "node:path";
import { formatDuration } from "../../reporting/index.ts";
import type { ReportContext, RunEnding } from "../../reporting/load/index.ts";
import { describeResult, FINISHED, loadResult } from "../../reporting/load/index.ts";
import { scrubReports } from "../../reporting/load/report-scrub.ts";
import { renderRunReports } from "../../reporting/load/run-reports.ts";
import type { Redactor } from "../../transport/index.ts";
import { displayPath } from "../display-path.ts";
import { interruption } from "../interruption.ts";
import type { BaselineStep } from "./baseline-step.ts";
import { CannotRunError } from "./cannot-run-error.ts";
import { existingFiles } from "./existing-files.ts";
import { loadExitCode } from "./k6-ending.ts";
import type { MergedRun } from "./merge-instances.ts";
import { mergeInstances } from "./merge-instances.ts";
import type { InstancesOptions } from "./run-instances.ts";
import { runInstances } from "./run-instances.ts";

/** The reports a merged run names, when it wrote them. */
const LISTED_REPORTS = ["summary.md", "summary.json", "junit.xml", "run.json", "baseline.json"];

export interface MergedRunOptions extends InstancesOptions {
  readonly say: (text: string) => void;
  /** Scrubs the written reports: a net for a bug, with the secrets long enough to tell from their words. */
  readonly reportNet: Redactor;
  /** The run's report context; the merged instance totals are added to it. */
  readonly context: ReportContext;
  /** run.json's content, given what the instances did. */
  readonly runJson: (extra: Record<string, unknown>) => Record<string, unknown>;
  /** Records the merged samples for later comparisons, and compares them with --baseline. */
  readonly baselineStep: BaselineStep;
}

/**
 * `load --instances N`: runs the instances, merges their outputs into one summary, renders the usual reports from
 * it (one JUnit file, one verdict, thresholds evaluated on the merged data) and maps the outcome to an exit code.
 */
export async function runMerged(options: MergedRunOptions): Promise<number> {
  const { say, reportDir } = options;
  say(
    `event-harness: each k6 instance judges only its own segment (k6 may say its thresholds were crossed); the verdict comes from the merged data\n`,
  );
  const run = await runInstances(options);
  const record = async (extra: Record<string, unknown>) =>
    writeFile(
      path.join(reportDir, "run.json"),
      `${JSON.stringify(
        options.runJson({
          instances: run.outputs.map((o, i) => ({
            segment: o.segment,
            k6ExitCode: run.results[i]?.exitCode ?? null,
          })),
          aborted: run.aborted,
          timedOut: run.timedOut,
          ...extra,
        }),
        null,
        2,
      )}\n`,
    );
  const ending: RunEnding = run.aborted
    ? { kind: "aborted", reason: interruption(options.signal) }
    : run.failure !== undefined
      ? { kind: "undecided", reason: "an instance did not finish, and a merged verdict needs every one" }
      : FINISHED;
  // An interrupted run still gets its reports when every instance left its summary, saying ABORTED.
  let merged: MergedRun | undefined;
  let mergeSeconds: number | undefined;
  if (run.failure === undefined) {
    const mergeStarted = Date.now();
    try {
      merged = await mergeInstances(run.outputs, reportDir);
      mergeSeconds = (Date.now() - mergeStarted) / 1000;
    } catch (error) {
      if (!(error instanceof CannotRunError) || !run.aborted) throw error;
    }
  }
  // The instances' samples together, as one run: the record and any comparison are of the merged data.
  const compared =
    merged !== undefined && ending.kind === "finished"
      ? await options.baselineStep.afterRun(
          run.outputs.map((o) => o.samplesFile),
          undefined,
        )
      : undefined;
  const reports =
    merged === undefined
      ? undefined
      : await renderRunReports(
          reportDir,
          { ...options.context, instances: merged.instances },
          ending,
          compared?.addition,
        );
  const verdict = reports?.result ?? loadResult(undefined, ending);
  if (reports !== undefined) options.stdout.write(reports.text);
  else options.stdout.write(`\n  ${describeResult(verdict)}\n\n`);
  if (compared !== undefined) options.stdout.write(`${compared.text}\n`);
  await options.baselineStep.save(verdict, say);
  const leaked = await scrubReports(reportDir, options.reportNet);
  if (leaked.length > 0) say(`event-harness: warning: redacted secrets found in ${leaked.join(", ")}\n`);
  await record({
    result: { outcome: verdict.outcome, reason: verdict.reason ?? null },
    ...(run.failure === undefined ? {} : { failure: options.redactor.untrusted(run.failure) }),
    ...(mergeSeconds === undefined ? {} : { mergeSeconds }),
  });
  const written = await existingFiles(reportDir, LISTED_REPORTS);
  options.stdout.write(
    `Reports: ${displayPath(reportDir)}/${written.join(", ")}${
      mergeSeconds === undefined
        ? ""
        : ` (merged from ${options.count} instances in ${formatDuration(mergeSeconds * 1000)}; each instance's own output in instance-N/)`
    }\n`,
  );
  if (run.aborted) say(`event-harness: aborted; all ${options.count} k6 instances were stopped\n`);
  else if (run.failure !== undefined) {
    say(
      `event-harness: ${options.redactor.untrusted(run.failure)}\nevent-harness: no verdict: every instance must finish for a merged one\n`,
    );
  } else if (verdict.regressed.length > 0) {
    say(`event-harness: REGRESSED against the baseline: ${verdict.regressed.join("; ")}\n`);
  } else if (verdict.outcome === "failed") {
    say(
      `event-harness: thresholds failed on the merged data: ${verdict.failedThresholds.map((t) => `${t.metric} ${t.expression}${t.observed ? ` (${t.observed})` : ""}`).join("; ")}\n`,
    );
  }
  return loadExitCode(verdict);
}
