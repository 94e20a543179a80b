import { CannotRunError } from "../../core/index.ts";
import { formatDuration } from "../../reporting/index.ts";
import type { RunEnding } from "../../reporting/load/index.ts";
import { FINISHED } from "../../reporting/load/index.ts";
import type { CommandIo } from "../command.ts";
import { interruption } from "../interruption.ts";
import { generatorUsage } from "./generator-usage.ts";
import { progressStarter } from "./live-progress.ts";
import type { LoadExecution } from "./load-execution.ts";
import type { MergedRun } from "./merge-instances.ts";
import { mergeInstances } from "./merge-instances.ts";
import type { PreparedLoad } from "./prepare-load.ts";
import { runInstances } from "./run-instances.ts";

/** The reports a merged run names, when it wrote them. */
const LISTED_REPORTS = ["summary.md", "summary.json", "junit.xml", "run.json", "baseline.json"];

/**
 * `load --instances N`: runs the instances and merges their outputs into one summary, from which the usual reports
 * are rendered (one JUnit file, one verdict, thresholds evaluated on the merged data).
 */
export async function executeMerged(
  prepared: PreparedLoad,
  env: (inputsEnv: Readonly<Record<string, string>>) => Record<string, string>,
  io: CommandIo,
): Promise<LoadExecution> {
  const count = prepared.settings.instances;
  const { reportDir, redactor } = prepared;
  io.stderr.write(
    `event-harness: each k6 instance judges only its own segment (k6 may say its thresholds were crossed); the verdict comes from the merged data\n`,
  );
  const run = await runInstances({
    count,
    k6: prepared.k6,
    script: prepared.script,
    config: prepared.config,
    plan: prepared.plan,
    reportDir,
    env,
    extraArgs: prepared.settings.outs.flatMap((out) => ["--out", out]),
    stdout: io.stdout,
    stderr: io.stderr,
    redactor,
    signal: io.signal,
    maxSeconds: prepared.maxSeconds,
    ...(prepared.quiet ? {} : { onStarted: progressStarter(prepared.plan.expectedSeconds * 1000, io) }),
  });
  const ending: RunEnding = run.aborted
    ? { kind: "aborted", reason: interruption(io.signal) }
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
      ? await prepared.baselineStep.afterRun(
          run.outputs.map((o) => o.samplesFile),
          undefined,
        )
      : undefined;
  const failure = run.failure === undefined ? undefined : redactor.untrusted(run.failure);
  // Any instance that ran out of VUs explains the merged run's dropped iterations.
  const vuShortage = run.results.map((result) => result.vuShortage).find((text) => text !== undefined);
  return {
    ending,
    compared,
    context:
      merged === undefined
        ? undefined
        : {
            ...prepared.context,
            instances: merged.instances,
            ...(vuShortage === undefined ? {} : { vuShortage }),
            generator: generatorUsage(run.results),
          },
    facts: {
      instances: run.outputs.map((o, i) => ({
        segment: o.segment,
        k6ExitCode: run.results[i]?.exitCode ?? null,
      })),
      aborted: run.aborted,
      timedOut: run.timedOut,
      ...(failure === undefined ? {} : { failure }),
      ...(mergeSeconds === undefined ? {} : { mergeSeconds }),
    },
    listed: LISTED_REPORTS,
    reportsNote:
      mergeSeconds === undefined
        ? ""
        : ` (merged from ${count} instances in ${formatDuration(mergeSeconds * 1000)}; each instance's own output in instance-N/)`,
    closing(verdict) {
      if (run.aborted) return `event-harness: aborted; all ${count} k6 instances were stopped\n`;
      if (failure !== undefined) {
        return `event-harness: ${failure}\nevent-harness: no verdict: every instance must finish for a merged one\n`;
      }
      if (verdict.outcome === "failed" && verdict.failedThresholds.length > 0) {
        return `event-harness: thresholds failed on the merged data: ${verdict.failedThresholds.map((t) => `${t.metric} ${t.expression}${t.observed ? ` (${t.observed})` : ""}`).join("; ")}\n`;
      }
      return undefined;
    },
  };
}
