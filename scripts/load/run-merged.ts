import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { ReportContext } from "../../load/index.ts";
import { formatDuration } from "../../reporting/index.ts";
import { displayPath } from "../cli/display-path.ts";
import { ExitCode } from "../cli/exit-codes.ts";
import { mergeInstances } from "./merge-instances.ts";
import { scrubReports } from "./report-scrub.ts";
import type { InstancesOptions } from "./run-instances.ts";
import { runInstances } from "./run-instances.ts";
import { renderRunReports } from "./run-reports.ts";

export interface MergedRunOptions extends InstancesOptions {
  readonly say: (text: string) => void;
  /** The run's report context; the merged instance totals are added to it. */
  readonly context: ReportContext;
  /** run.json's content, given what the instances did. */
  readonly runJson: (extra: Record<string, unknown>) => Record<string, unknown>;
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
  if (run.aborted) {
    await record({});
    say(`event-harness: aborted; all ${options.count} k6 instances were stopped\n`);
    return ExitCode.undecided;
  }
  if (run.failure !== undefined) {
    await record({ failure: options.redactor.redact(run.failure) });
    say(
      `event-harness: ${run.failure}\nevent-harness: no verdict: every instance must finish for a merged one\n`,
    );
    return ExitCode.undecided;
  }
  const mergeStarted = Date.now();
  const merged = await mergeInstances(run.outputs, reportDir);
  const mergeSeconds = (Date.now() - mergeStarted) / 1000;
  const reports = await renderRunReports(reportDir, {
    ...options.context,
    instances: merged.instances,
  });
  if (reports !== undefined) options.stdout.write(options.redactor.redact(reports.text));
  const leaked = await scrubReports(reportDir, options.redactor);
  if (leaked.length > 0) say(`event-harness: warning: redacted secrets found in ${leaked.join(", ")}\n`);
  await record({ mergeSeconds });
  options.stdout.write(
    `Reports: ${displayPath(reportDir)}/summary.md, summary.json, junit.xml (merged from ${options.count} instances in ${formatDuration(mergeSeconds * 1000)}; each instance's own output in instance-N/)\n`,
  );
  const failed = reports?.failedThresholds ?? [];
  if (failed.length > 0) {
    say(
      `event-harness: thresholds failed on the merged data: ${failed.map((t) => `${t.metric} ${t.expression}${t.observed ? ` (${t.observed})` : ""}`).join("; ")}\n`,
    );
    return ExitCode.failed;
  }
  return reports === undefined ? ExitCode.undecided : ExitCode.ok;
}
