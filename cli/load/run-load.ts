import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureK6 } from "../../k6-tooling/binary/k6-binary.ts";
import { bundleLoadScenarios } from "../../k6-tooling/bundle/bundle-load.ts";
import { writeK6Operator } from "../../k6-tooling/operator/write-k6-operator.ts";
import { writeEventTemplates } from "../../k6-tooling/run/event-templates.ts";
import { k6Connection } from "../../k6-tooling/run/k6-connection.ts";
import { k6Environment } from "../../k6-tooling/run/k6-environment.ts";
import { k6InputArgs, writeK6Inputs } from "../../k6-tooling/run/k6-inputs.ts";
import { runK6 } from "../../k6-tooling/run/k6-runner.ts";
import type { ClientCredential, RunConfig, ScenarioPlan } from "../../load/index.ts";
import { isScenarioName, planScenario, readRunConfig, SCENARIO_NAMES, SCENARIOS } from "../../load/index.ts";
import packageJson from "../../package.json" with { type: "json" };
import { formatDuration, formatDurationCompact } from "../../reporting/index.ts";
import { describeResult, loadResult, reportContext } from "../../reporting/load/index.ts";
import { clearReports } from "../../reporting/load/report-files.ts";
import { scrubReports } from "../../reporting/load/report-scrub.ts";
import { renderRunReports } from "../../reporting/load/run-reports.ts";
import type { RunningSandbox } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { INSECURE_WARNING } from "../../transport/connection/index.ts";
import type { Target } from "../../transport/index.ts";
import { Redactor } from "../../transport/index.ts";
import type { CommandIo } from "../command.ts";
import { compactTimestamp } from "../compact-timestamp.ts";
import { readCompareOptions } from "../compare/compare-options.ts";
import { displayPath } from "../display-path.ts";
import { ExitCode } from "../exit-codes.ts";
import { parseSandboxFaults } from "../sandbox-fault-option.ts";
import { embeddedTarget, resolveTarget, resolveTargetTuning } from "../target-options.ts";
import { UsageError } from "../usage-error.ts";
import { prepareWritableDir } from "../writable-dir.ts";
import { BaselineStep } from "./baseline-step.ts";
import { CannotRunError } from "./cannot-run-error.ts";
import { readCredentialsFile } from "./credentials-file.ts";
import { displayUrl } from "./display-url.ts";
import { existingFiles } from "./existing-files.ts";
import { k6Ending, loadExitCode } from "./k6-ending.ts";
import type { LoadOptionValues } from "./load-settings.ts";
import { readLoadSettings } from "./load-settings.ts";
import { checkPlanLength } from "./plan-length.ts";
import { preflight } from "./preflight.ts";
import { createReportDir } from "./report-dir.ts";
import { runMerged } from "./run-merged.ts";
import { runVariables } from "./run-variables.ts";

/**
 * The reports are built from k6's numbers and the harness's words, never from a target's text: scrubbing them is a
 * net for a bug, and a secret shorter than this cannot be told from the words and paths they hold.
 */
const REPORT_NET_MIN_SECRET = 8;

/** How often a long run says it is still running. */
const HEARTBEAT_MS = 60_000;
/** The harness's own cap on top of the scenario's: only a hung k6 ever reaches it. */
const WATCHDOG_SLACK_SECONDS = 120;
/** The reports a run names on its last line, when it wrote them (k6 skips the dashboard of a short run). */
const LISTED_REPORTS = [
  "summary.md",
  "summary.json",
  "junit.xml",
  "dashboard.html",
  "run.json",
  "baseline.json",
];

function describeRun(config: RunConfig, plan: ScenarioPlan): string {
  const spec = SCENARIOS[config.scenario];
  const load = plan.idleGap
    ? `${config.vus} VUs × ${plan.idleGap.cycles} cycles of gaps ${plan.idleGap.midGapSeconds}s, ${plan.idleGap.shortGaps} × ${plan.idleGap.shortGapSeconds}s, ${plan.idleGap.longGapSeconds}s`
    : `${spec.usesRate ? `${config.rate}/s, ` : ""}${config.vus} VUs, ${formatDurationCompact((config.durationSeconds ?? 0) * 1000)}`;
  return `${config.scenario}: ${load}, client model ${config.clientModel}, expires_in ${config.expiresInSeconds}s (margin ${config.marginSeconds}s), about ${formatDurationCompact(plan.expectedSeconds * 1000)}`;
}

/**
 * `event-harness load <scenario>`: checks the options and the target, generates the bodies, bundles the scenario,
 * runs k6 (secrets in its environment only), renders and scrubs the reports, and maps the outcome to an exit code.
 */
export async function runLoad(scenario: string, options: LoadOptionValues, io: CommandIo): Promise<number> {
  if (!isScenarioName(scenario)) {
    throw new UsageError(
      "invalid-value",
      `unknown scenario '${scenario}' (one of: ${SCENARIO_NAMES.join(", ")})`,
      "load",
    );
  }
  const settings = readLoadSettings(scenario, options);
  const faults = await parseSandboxFaults(options["sandbox-fault"] ?? [], "load");

  const credentialsFile = options.credentials ?? io.env.EVENT_API_CREDENTIALS_FILE;
  const fileCredentials = credentialsFile ? await readCredentialsFile(credentialsFile) : undefined;
  const first = fileCredentials?.[0];
  // A credentials file names the clients, so the target options need no single client of their own (a file
  // without --auth-url/--base-url is then reported by resolveTarget as an incomplete external target).
  const targetInput = first
    ? {
        ...options,
        "client-id": options["client-id"] ?? first.clientId,
        "client-secret": options["client-secret"] ?? first.clientSecret,
      }
    : options;
  const external = resolveTarget(targetInput, io.env);
  const compareOptions = readCompareOptions(options, "load");
  if (
    external &&
    (faults.length > 0 ||
      options["sandbox-expires-in"] !== undefined ||
      options["sandbox-latency"] !== undefined)
  ) {
    throw new UsageError(
      "invalid-config",
      "--sandbox-fault, --sandbox-expires-in and --sandbox-latency apply only to the embedded sandbox",
      "load",
    );
  }
  const operatorDir = options["k6-operator"];
  if (operatorDir !== undefined && (options.baseline ?? options["save-baseline"]) !== undefined) {
    throw new UsageError(
      "invalid-config",
      "--baseline and --save-baseline need the run's samples here: with --k6-operator, compare after load-merge with `event-harness compare`",
      "load",
    );
  }
  if (operatorDir !== undefined && !external) {
    throw new UsageError(
      "invalid-config",
      "--k6-operator needs the target the cluster will load (--auth-url, --base-url, --client-id and its secret): the embedded sandbox lives only in this process",
      "load",
    );
  }
  const tuning = resolveTargetTuning(options, io.env);

  // Before k6 is fetched and the first request: a run whose reports cannot be written is not started.
  const started = new Date();
  const reportDir =
    operatorDir !== undefined
      ? await prepareWritableDir(operatorDir, "--k6-operator", "load")
      : options["report-dir"]
        ? await prepareWritableDir(options["report-dir"], "--report-dir", "load")
        : await createReportDir(scenario, started);
  await clearReports(reportDir);
  const k6 = await ensureK6({ env: io.env, stderr: io.stderr, signal: io.signal });

  const sandbox: RunningSandbox | undefined = external
    ? undefined
    : await startSandbox({
        port: 0,
        expiresIn: settings.sandboxExpiresIn,
        faults,
        latencyMs: settings.sandboxLatencyMs,
      });
  let disposeReach = async () => {};
  try {
    const credentials: ClientCredential[] =
      fileCredentials ??
      (external
        ? [{ clientId: external.clientId, clientSecret: external.clientSecret.reveal() }]
        : (sandbox as RunningSandbox).clients.map((c) => ({
            clientId: c.clientId,
            clientSecret: c.clientSecret,
          })));
    const target: Target = external ?? embeddedTarget(sandbox as RunningSandbox, tuning);
    const redactor = new Redactor();
    const reportNet = new Redactor();
    for (const { clientId, clientSecret } of credentials) {
      redactor.add(clientSecret, "<CLIENT_SECRET>").addBasic(clientId, clientSecret);
      if (clientSecret.length >= REPORT_NET_MIN_SECRET) reportNet.add(clientSecret, "<CLIENT_SECRET>");
      reportNet.addBasic(clientId, clientSecret);
    }
    // The harness's own words: only k6's lines and a target's answers pass the redactor, as values.
    const say = (text: string) => io.stderr.write(text);

    const { expiresInSeconds } = await preflight(target, credentials, redactor, io.signal);
    if (settings.marginSeconds !== undefined && settings.marginSeconds >= expiresInSeconds / 2) {
      throw new UsageError(
        "invalid-value",
        `--expires-margin ${settings.marginSeconds} leaves no room in expires_in ${expiresInSeconds}s (keep it under half)`,
        "load",
      );
    }

    const runId = `${scenario}-${compactTimestamp(started)}-${randomBytes(2).toString("hex")}`;
    const dataFile = path.join(reportDir, "event-templates.json");
    await writeEventTemplates(dataFile, { runId, seed: settings.seed, channelId: target.channelId });
    // Into the report, so a run keeps the exact script k6 ran and an installed package is never written to; for
    // k6-operator the archive carries the script, so it is bundled aside.
    const bundleDir =
      operatorDir === undefined ? reportDir : await mkdtemp(path.join(tmpdir(), "event-harness-bundle-"));
    const [bundle] = await bundleLoadScenarios([scenario], bundleDir);
    // Read back and planned before k6 starts: a bad combination fails here, with exit 2, not inside k6.
    let config: RunConfig;
    let plan: ScenarioPlan;
    try {
      config = readRunConfig(
        runVariables({ settings, target, credentials, runId, dataFile, expiresInSeconds }),
        scenario,
      );
      plan = planScenario(config);
    } catch (error) {
      throw new UsageError("invalid-config", (error as Error).message, "load");
    }
    checkPlanLength(scenario, plan.maxSeconds + WATCHDOG_SLACK_SECONDS, expiresInSeconds);
    const context = reportContext(config, plan, target.connection.insecure ? [INSECURE_WARNING] : []);
    // What run.json records of the target: where it is and how it was reached, never a credential.
    const targetRecord = {
      baseUrl: displayUrl(target.baseUrl),
      tokenUrl: displayUrl(target.tokenUrl),
      clientAuth: target.clientAuth,
      ...(target.scope === undefined ? {} : { scope: target.scope }),
      insecure: target.connection.insecure,
      embedded: !external,
    };
    // Before any load: a baseline that cannot be read, or was taken with other settings, is refused with exit 2.
    const baselineStep = await BaselineStep.prepare({
      config,
      plan,
      reportDir,
      versions: { harness: packageJson.version, k6: k6.version },
      runId,
      startedAt: started,
      target: {
        baseUrl: targetRecord.baseUrl,
        embedded: !external,
        ...(sandbox && settings.sandboxLatencyMs > 0 ? { sandboxLatencyMs: settings.sandboxLatencyMs } : {}),
      },
      baselineFile: options.baseline,
      saveBaseline: options["save-baseline"],
      compareOptions,
    });
    if (operatorDir !== undefined) {
      const written = await writeK6Operator({
        dir: reportDir,
        k6,
        bundle: (bundle as { file: string }).file,
        dataFile,
        config,
        plan,
        context,
        parentEnv: io.env,
        signal: io.signal,
      }).finally(() => rm(bundleDir, { recursive: true, force: true }));
      say(
        `event-harness: ${describeRun(config, plan)}, for k6-operator with ${config.instances} runner(s)\n`,
      );
      if (!written.inConfigMap) {
        say(
          `event-harness: the archive is ${(written.archiveBytes / 1048576).toFixed(2)} MiB, over a ConfigMap's 1 MiB limit: the TestRun reads it from the results claim instead (see README.md there)\n`,
        );
      }
      io.stdout.write(
        `Wrote ${written.files.map((f) => path.join(displayPath(reportDir), f)).join(", ")}\nNext: ${displayPath(path.join(reportDir, "README.md"))}\n`,
      );
      return ExitCode.ok;
    }
    const inputs = await writeK6Inputs(config, plan, reportDir);
    // The dashboard draws charts only for runs longer than three periods (default 10 s): short runs need a short one.
    const periodSeconds = Math.min(10, Math.max(1, Math.round(plan.expectedSeconds / 30)));
    const reach = await k6Connection(target.connection, io.env);
    disposeReach = reach.dispose;
    const env = k6Environment(io.env, {
      ...reach.env,
      ...inputs.env,
      K6_WEB_DASHBOARD: "true",
      K6_WEB_DASHBOARD_EXPORT: path.join(reportDir, "dashboard.html"),
      K6_WEB_DASHBOARD_PORT: "-1",
      K6_WEB_DASHBOARD_PERIOD: `${periodSeconds}s`,
    });

    say(
      `event-harness: ${describeRun(config, plan)}${settings.instances > 1 ? `, split over ${settings.instances} k6 instances` : ""}\n` +
        `event-harness: target ${displayUrl(target.baseUrl)}${sandbox ? ` (embedded sandbox${faults.length > 0 ? `, fault ${faults.join(", ")}` : ""})` : ""}, k6 ${k6.version}\n` +
        `event-harness: reports in ${displayPath(reportDir)}\n`,
    );
    if (settings.instances > 1) {
      return await runMerged({
        count: settings.instances,
        k6,
        script: (bundle as { file: string }).file,
        config,
        plan,
        reportDir,
        env: (inputsEnv) => k6Environment(io.env, { ...reach.env, ...inputsEnv }),
        context,
        extraArgs: settings.outs.flatMap((out) => ["--out", out]),
        stdout: io.stdout,
        stderr: io.stderr,
        redactor,
        reportNet,
        signal: io.signal,
        maxSeconds: plan.maxSeconds + WATCHDOG_SLACK_SECONDS,
        say,
        baselineStep,
        runJson: (extra) => ({
          tool: { name: packageJson.name, version: packageJson.version },
          k6: k6.version,
          scenario,
          runId,
          seed: settings.seed,
          target: targetRecord,
          sandboxFaults: faults,
          startedAt: started.toISOString(),
          finishedAt: new Date().toISOString(),
          ...extra,
        }),
      });
    }
    // k6 runs with --quiet (its progress bars are noise in a pipe): long runs get a line a minute instead.
    const k6Started = Date.now();
    const heartbeat = setInterval(() => {
      const elapsedMs = Date.now() - k6Started;
      say(
        `event-harness: … ${formatDuration(elapsedMs)} of about ${formatDuration(plan.expectedSeconds * 1000)}\n`,
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const maxSeconds = plan.maxSeconds + WATCHDOG_SLACK_SECONDS;
    const samples = baselineStep.samplesOutput(settings.outs);
    const result = await runK6({
      k6,
      script: (bundle as { file: string }).file,
      env,
      args: [...k6InputArgs(inputs), ...settings.outs.flatMap((out) => ["--out", out]), ...samples.args],
      stdout: io.stdout,
      stderr: io.stderr,
      redactor,
      signal: io.signal,
      maxSeconds,
    }).finally(() => clearInterval(heartbeat));

    const ending = k6Ending(result, io.signal, maxSeconds);
    // Only a finished run is recorded or compared: a partial one proves nothing about the target.
    const compared =
      ending.kind === "finished"
        ? await baselineStep.afterRun([samples.file], samples.own ? samples.file : undefined)
        : undefined;
    // The harness's own samples serve only the record, which a partial run does not get.
    if (ending.kind !== "finished" && samples.own) await rm(samples.file, { force: true });
    const reports = await renderRunReports(reportDir, context, ending, compared?.addition);
    const verdict = reports?.result ?? loadResult(undefined, ending);
    if (reports !== undefined) io.stdout.write(reports.text);
    else io.stdout.write(`\n  ${describeResult(verdict)}\n\n`);
    if (compared !== undefined) io.stdout.write(`${compared.text}\n`);
    await baselineStep.save(verdict, say);
    const leaked = await scrubReports(reportDir, reportNet);
    if (leaked.length > 0) say(`event-harness: warning: redacted secrets found in ${leaked.join(", ")}\n`);
    await writeFile(
      path.join(reportDir, "run.json"),
      `${JSON.stringify(
        {
          tool: { name: packageJson.name, version: packageJson.version },
          k6: k6.version,
          scenario,
          runId,
          seed: settings.seed,
          target: targetRecord,
          sandboxFaults: faults,
          startedAt: started.toISOString(),
          finishedAt: new Date().toISOString(),
          result: { outcome: verdict.outcome, reason: verdict.reason ?? null },
          k6ExitCode: result.exitCode ?? null,
          aborted: result.aborted,
          timedOut: result.timedOut,
        },
        null,
        2,
      )}\n`,
    );
    const written = await existingFiles(reportDir, LISTED_REPORTS);
    io.stdout.write(`Reports: ${displayPath(reportDir)}/${written.join(", ")}\n`);

    if (result.aborted) say("event-harness: aborted; k6 was stopped\n");
    else if (result.timedOut) {
      say(`event-harness: k6 did not finish within ${formatDuration(maxSeconds * 1000)} and was stopped\n`);
    } else if (verdict.outcome === "failed") {
      const list = verdict.failedThresholds.map(
        (t) => `${t.metric} ${t.expression}${t.observed ? ` (${t.observed})` : ""}`,
      );
      if (list.length > 0 || verdict.regressed.length === 0) {
        say(
          `event-harness: thresholds failed: ${list.length > 0 ? list.join("; ") : "see the summary above"}\n`,
        );
      }
      if (verdict.regressed.length > 0) {
        say(`event-harness: REGRESSED against the baseline: ${verdict.regressed.join("; ")}\n`);
      }
    } else if (verdict.outcome === "undecided") {
      say(`event-harness: ${verdict.reason ?? "no verdict"}; see above\n`);
    }
    return loadExitCode(verdict);
  } catch (error) {
    if (error instanceof CannotRunError) {
      io.stderr.write(`event-harness: ${error.message}\n`);
      return ExitCode.undecided;
    }
    throw error;
  } finally {
    await disposeReach();
    await sandbox?.close();
  }
}
