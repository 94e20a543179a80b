import { rm } from "node:fs/promises";
import path from "node:path";
import {
  freeLoopbackPort,
  k6Connection,
  k6Environment,
  k6InputArgs,
  runK6,
  writeK6Inputs,
} from "../../k6-tooling/index.ts";
import { EMBEDDED_SANDBOX_NOTE, formatDuration } from "../../reporting/index.ts";
import { describeTokenEndpoint } from "../../transport/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { describeRun } from "./describe-run.ts";
import { executeMerged } from "./execute-instances.ts";
import { generatorUsage } from "./generator-usage.ts";
import { k6Ending } from "./k6-ending.ts";
import { progressStarter } from "./live-progress.ts";
import type { LoadExecution } from "./load-execution.ts";
import type { PreparedLoad } from "./prepare-load.ts";
import { samplesOutput, singleRunExtras } from "./single-run-k6-args.ts";

/** k6's own log lines, kept out of the console between the harness's lines. */
const K6_LOG_FILE = "k6.log";
/** The reports a run names on its last line, when it wrote them (k6 skips the dashboard of a short run). */
const LISTED_REPORTS = [
  "summary.md",
  "summary.json",
  "junit.xml",
  "dashboard.html",
  "run.json",
  "baseline.json",
];

/**
 * Runs the prepared scenario in k6, as one process or split over several (secrets in k6's environment only), and
 * tells how it ended; the proxy and CA k6 was given are removed once it is done.
 */
export async function executeLoad(prepared: PreparedLoad, io: CommandIo): Promise<LoadExecution> {
  const { settings, faults, reportDir, config, plan, target } = prepared;
  const reach = await k6Connection(target.connection, io.env);
  try {
    io.stderr.write(
      `event-harness: ${describeRun(config, plan)}${settings.instances > 1 ? `, split over ${settings.instances} k6 instances` : ""}\n` +
        `event-harness: target ${prepared.targetRecord.baseUrl}${prepared.targetRecord.tokenEndpointOrigin === undefined ? "" : ` (${describeTokenEndpoint(prepared.targetRecord)})`}${prepared.sandbox ? ` (${EMBEDDED_SANDBOX_NOTE}${faults.length > 0 ? `, fault ${faults.join(", ")}` : ""})` : ""}, k6 ${prepared.k6.version}\n` +
        `event-harness: reports in ${displayPath(reportDir)}\n`,
    );
    const env = (inputsEnv: Readonly<Record<string, string>>) =>
      k6Environment(io.env, { ...reach.env, ...inputsEnv });
    return settings.instances > 1
      ? await executeMerged(prepared, env, io)
      : await executeSingle(prepared, env, io);
  } finally {
    await reach.dispose();
  }
}

async function executeSingle(
  prepared: PreparedLoad,
  k6Env: (inputsEnv: Readonly<Record<string, string>>) => Record<string, string>,
  io: CommandIo,
): Promise<LoadExecution> {
  const { reportDir, config, plan, maxSeconds } = prepared;
  const inputs = await writeK6Inputs(config, plan, reportDir);
  // k6 runs with --quiet (its progress bars are noise in a pipe): the harness shows its own, read from k6's REST API.
  // A K6_ADDRESS the user set is k6's address still: the progress reads it there.
  const address = io.env.K6_ADDRESS?.trim() || `127.0.0.1:${await freeLoopbackPort()}`;
  const samples = samplesOutput(reportDir, prepared.settings.outs, prepared.k6);
  const extras = singleRunExtras({
    reportDir,
    expectedSeconds: plan.expectedSeconds,
    address,
    samples,
    outs: prepared.settings.outs,
  });
  const env = k6Env({ ...inputs.env, ...extras.env });
  const stopProgress = prepared.quiet
    ? () => {}
    : progressStarter(prepared.plan.expectedSeconds * 1000, io)([address]);
  const result = await runK6({
    k6: prepared.k6,
    script: prepared.script,
    env,
    args: [...k6InputArgs(inputs), ...extras.args],
    stdout: io.stdout,
    stderr: io.stderr,
    redactor: prepared.redactor,
    signal: io.signal,
    maxSeconds,
    logFile: path.join(reportDir, K6_LOG_FILE),
    statusAddress: address,
  }).finally(stopProgress);
  if (result.loggedErrors > 0) {
    const s = result.loggedErrors === 1 ? "" : "s";
    io.stderr.write(
      `event-harness: k6 logged ${result.loggedErrors} error line${s}: see ${displayPath(path.join(reportDir, K6_LOG_FILE))}\n`,
    );
  }
  const ending = k6Ending(result, io.signal, maxSeconds);
  // Only a finished run is recorded or compared: a partial one proves nothing about the target.
  const compared =
    ending.kind === "finished"
      ? await prepared.baselineStep.afterRun([samples.file], samples.own ? samples.file : undefined)
      : undefined;
  // The harness's own samples serve only the record, which a partial run does not get.
  if (ending.kind !== "finished" && samples.own) await rm(samples.file, { force: true });
  return {
    ending,
    compared,
    // k6's reason for dropped iterations, which it says only in its log, goes into the reports.
    context: {
      ...prepared.context,
      generator: generatorUsage([result]),
      ...(result.vuShortage === undefined ? {} : { vuShortage: result.vuShortage }),
    },
    facts: { k6ExitCode: result.exitCode ?? null, aborted: result.aborted, timedOut: result.timedOut },
    listed: LISTED_REPORTS,
    reportsNote: "",
    closing(verdict) {
      if (result.aborted) return "event-harness: aborted; k6 was stopped\n";
      if (result.timedOut) {
        return `event-harness: k6 did not finish within ${formatDuration(maxSeconds * 1000)} and was stopped\n`;
      }
      // A run failed only by its baseline comparison is said so by the record, after this.
      if (
        verdict.outcome === "failed" &&
        (verdict.failedThresholds.length > 0 || verdict.regressed.length === 0)
      ) {
        const list = verdict.failedThresholds.map(
          (t) => `${t.metric} ${t.expression}${t.observed ? ` (${t.observed})` : ""}`,
        );
        return `event-harness: thresholds failed: ${list.length > 0 ? list.join("; ") : "see the summary above"}\n`;
      }
      if (verdict.outcome === "undecided")
        return `event-harness: ${verdict.reason ?? "no verdict"}; see above\n`;
      return undefined;
    },
  };
}
