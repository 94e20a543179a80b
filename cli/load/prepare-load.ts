import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { UsageError } from "../../core/index.ts";
import type { K6Binary } from "../../k6-tooling/binary/k6-binary.ts";
import { ensureK6 } from "../../k6-tooling/binary/k6-binary.ts";
import { bundleLoadScenarios } from "../../k6-tooling/bundle/bundle-load.ts";
import { writeEventTemplates } from "../../k6-tooling/run/event-templates.ts";
import type { ClientCredential, RunConfig, ScenarioName, ScenarioPlan } from "../../load/index.ts";
import { isScenarioName, planScenario, readRunConfig, SCENARIO_NAMES } from "../../load/index.ts";
import packageJson from "../../package.json" with { type: "json" };
import type { Ledger } from "../../reporting/accepted/index.ts";
import type { FailOn } from "../../reporting/compare/index.ts";
import type { ReportContext } from "../../reporting/load/index.ts";
import { reportContext } from "../../reporting/load/index.ts";
import type { FaultName, RunningSandbox } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { INSECURE_WARNING } from "../../transport/connection/index.ts";
import type { Target } from "../../transport/index.ts";
import { mapTokenEndpointFacts, Redactor, tokenEndpointFacts } from "../../transport/index.ts";
import { ledgerScope, resolveLedger } from "../accepted-ledger.ts";
import type { CommandIo } from "../command.ts";
import { compactTimestamp } from "../compact-timestamp.ts";
import { baselinePaths } from "../compare/baseline-set.ts";
import { readCompareOptions, readFailOn } from "../compare/read-compare-options.ts";
import { didYouMean } from "../did-you-mean.ts";
import { resolveTargetWithIssuer } from "../issuer-target.ts";
import type { LoadOptionValues } from "../options/load-options.ts";
import { parseInteger } from "../options/parse-option-value.ts";
import { parseSandboxFaults } from "../options/sandbox-fault-option.ts";
import { embeddedTarget, resolveTargetTuning } from "../options/target-options.ts";
import { switchedNote } from "../preflight/index.ts";
import { claimReportDir, createReportDir } from "../report-dir.ts";
import { runOverrides } from "../run-overrides.ts";
import { BaselineStep } from "./baseline-step.ts";
import { readCredentialsFile } from "./credentials-file.ts";
import { displayUrl } from "./display-url.ts";
import { preflight } from "./load-preflight.ts";
import type { LoadSettings } from "./load-settings.ts";
import { readLoadSettings } from "./load-settings.ts";
import { checkPlanLength } from "./plan-length.ts";
import { runVariables } from "./run-variables.ts";

/**
 * The reports are built from k6's numbers and the harness's words, never from a target's text: scrubbing them is a
 * net for a bug, and a secret shorter than this cannot be told from the words and paths they hold.
 */
const REPORT_NET_MIN_SECRET = 8;
/** The harness's own cap on top of the scenario's: only a hung k6 ever reaches it. */
const WATCHDOG_SLACK_SECONDS = 120;

/** What run.json records of the target: where it is and how it was reached, never a credential. */
export interface TargetRecord {
  readonly baseUrl: string;
  readonly tokenUrl: string;
  /** The issuer whose metadata named the token endpoint (--issuer). */
  readonly issuer?: string;
  /** The token endpoint's origin, when the issuer's metadata put it on another origin than the issuer's. */
  readonly tokenEndpointOrigin?: string;
  readonly clientAuth: Target["clientAuth"];
  readonly scope?: string;
  readonly insecure: boolean;
  readonly embedded: boolean;
}

/** A load run checked, its target reached and its scenario bundled and planned: everything k6 needs. */
export interface PreparedLoad {
  readonly scenario: ScenarioName;
  readonly settings: LoadSettings;
  readonly faults: readonly string[];
  readonly started: Date;
  readonly runId: string;
  /** Where the reports go, or the k6-operator output with --k6-operator. */
  readonly reportDir: string;
  readonly operator: boolean;
  readonly k6: K6Binary;
  /** The embedded sandbox, when no target was given. */
  readonly sandbox: RunningSandbox | undefined;
  readonly target: Target;
  readonly targetRecord: TargetRecord;
  /** Redacts every client's secret from what k6 and the target say. */
  readonly redactor: Redactor;
  /** Scrubs the written reports: a net for a bug, with the secrets long enough to tell from their words. */
  readonly reportNet: Redactor;
  readonly dataFile: string;
  /** The bundled scenario, and the folder it was bundled into (the report folder, or a temporary one). */
  readonly script: string;
  readonly bundleDir: string;
  readonly config: RunConfig;
  readonly plan: ScenarioPlan;
  readonly context: ReportContext;
  /** The scenario's longest run with the harness's slack: k6 is stopped after it. */
  readonly maxSeconds: number;
  /** The ledger of accepted deviations the thresholds are judged with. */
  readonly ledger: Ledger | undefined;
  /** Records the run's samples for later comparisons, and compares them with --baseline. */
  readonly baselineStep: BaselineStep;
  /** No live progress on stderr (--quiet). */
  readonly quiet: boolean;
}

/** A load run's options checked and read, before anything is started. */
interface CheckedOptions {
  readonly scenario: ScenarioName;
  readonly settings: LoadSettings;
  readonly faults: readonly FaultName[];
  /** The clients of --credentials (or EVENT_API_CREDENTIALS_FILE), when one was given. */
  readonly fileCredentials: readonly ClientCredential[] | undefined;
  /** The target given, or undefined for the embedded sandbox. */
  readonly external: Target | undefined;
  readonly operatorDir: string | undefined;
  /** --expires-in, which only a k6-operator run may give. */
  readonly expiresIn: number | undefined;
  readonly tuning: ReturnType<typeof resolveTargetTuning>;
  readonly ledger: Ledger | undefined;
  readonly compareOptions: ReturnType<typeof readCompareOptions>;
  readonly failOn: FailOn;
}

/** The options checked and read, before anything is started: a mistake here is exit 2 with nothing run. */
async function checkOptions(
  scenario: string,
  options: LoadOptionValues,
  io: CommandIo,
): Promise<CheckedOptions> {
  if (!isScenarioName(scenario)) {
    throw new UsageError(
      "invalid-value",
      `unknown scenario '${scenario}'${didYouMean(scenario, SCENARIO_NAMES)} (one of: ${SCENARIO_NAMES.join(", ")})`,
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
  const external = await resolveTargetWithIssuer(targetInput, io.env, io);
  const compareOptions = readCompareOptions(options, "load");
  const failOn = readFailOn(options);
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
  // A run learns expires_in from the target; manifests are written without asking it, so the user may say it.
  const givenExpiresIn =
    options["expires-in"] === undefined
      ? undefined
      : parseInteger("expires-in", options["expires-in"], { min: 1, max: 86_400, fallback: 1 });
  if (givenExpiresIn !== undefined && operatorDir === undefined) {
    throw new UsageError(
      "invalid-config",
      "--expires-in applies only with --k6-operator: a run learns expires_in from the target's first token",
      "load",
    );
  }
  if (operatorDir !== undefined && scenario === "idle-gap" && givenExpiresIn === undefined) {
    throw new UsageError(
      "invalid-config",
      "idle-gap with --k6-operator needs --expires-in S, the target's expires_in: its gaps are planned from it, and the manifests are written without asking the target",
      "load",
    );
  }
  const tuning = resolveTargetTuning(options, io.env);
  const ledger = await resolveLedger(options.accepted, io.env, ledgerScope(external, io.env));
  return {
    scenario,
    settings,
    faults,
    fileCredentials,
    external,
    operatorDir,
    expiresIn: givenExpiresIn,
    tuning,
    ledger,
    compareOptions,
    failOn,
  };
}

/** Where the reports go: a directory this run alone writes, claimed before k6 is fetched. */
async function readyReportDir(
  { scenario, operatorDir }: CheckedOptions,
  reportDirOption: string | undefined,
  started: Date,
): Promise<string> {
  if (operatorDir !== undefined) return claimReportDir(operatorDir, "--k6-operator", "load");
  if (reportDirOption) return claimReportDir(reportDirOption, "--report-dir", "load");
  return createReportDir(path.join("reports", "load"), `${scenario}-${compactTimestamp(started)}`, "load");
}

/** The clients k6 is given: the target's one, or every client of the embedded sandbox. */
function clientsOf(external: Target | undefined, sandbox: RunningSandbox): ClientCredential[] {
  return external
    ? [{ clientId: external.clientId, clientSecret: external.clientSecret.reveal() }]
    : sandbox.clients.map((c) => ({ clientId: c.clientId, clientSecret: c.clientSecret }));
}

/** Read back and planned before k6 starts: a bad combination fails here, with exit 2, not inside k6. */
function planRun(
  variables: Record<string, string>,
  scenario: ScenarioName,
): { config: RunConfig; plan: ScenarioPlan } {
  try {
    const config = readRunConfig(variables, scenario);
    return { config, plan: planScenario(config) };
  } catch (error) {
    throw new UsageError("invalid-config", (error as Error).message, "load");
  }
}

function redactorsFor(
  credentials: readonly ClientCredential[],
  tokenParams: Target["tokenParams"],
): { redactor: Redactor; reportNet: Redactor } {
  const redactor = new Redactor().addTokenParams(tokenParams);
  const reportNet = new Redactor().addTokenParams(
    Object.fromEntries(
      Object.entries(tokenParams ?? {}).filter(([, value]) => value.length >= REPORT_NET_MIN_SECRET),
    ),
  );
  for (const { clientId, clientSecret } of credentials) {
    redactor.add(clientSecret, "<CLIENT_SECRET>").addBasic(clientId, clientSecret);
    if (clientSecret.length >= REPORT_NET_MIN_SECRET) reportNet.add(clientSecret, "<CLIENT_SECRET>");
    reportNet.addBasic(clientId, clientSecret);
  }
  return { redactor, reportNet };
}

/** scheme://host:port, which is all a baseline keeps of where the events went. */
function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return "<invalid url>";
  }
}

function targetRecordOf(target: Target, embedded: boolean): TargetRecord {
  return {
    baseUrl: displayUrl(target.baseUrl),
    ...mapTokenEndpointFacts(tokenEndpointFacts(target), displayUrl),
    clientAuth: target.clientAuth,
    ...(target.scope === undefined ? {} : { scope: target.scope }),
    insecure: target.connection.insecure,
    embedded,
  };
}

/**
 * Prepares a load run: checks the options, readies the report folder and k6, starts the embedded sandbox when no
 * target is given, checks the target's tokens, generates the bodies and bundles and plans the scenario. Whoever gets
 * the prepared run stops its sandbox; if preparing fails, it stops it itself.
 */
export async function prepareLoad(
  scenarioName: string,
  options: LoadOptionValues,
  io: CommandIo,
): Promise<PreparedLoad> {
  const given = await checkOptions(scenarioName, options, io);
  const { settings, external } = given;
  // Before k6 is fetched and the first request: a run whose reports cannot be written is not started.
  const started = new Date();
  const reportDir = await readyReportDir(given, options["report-dir"], started);
  const k6 = await ensureK6({ env: io.env, stderr: io.stderr, signal: io.signal });

  const sandbox: RunningSandbox | undefined = external
    ? undefined
    : await startSandbox({
        port: 0,
        expiresIn: settings.sandboxExpiresIn,
        faults: given.faults,
        latencyMs: settings.sandboxLatencyMs,
      });
  try {
    const credentials = given.fileCredentials ?? clientsOf(external, sandbox as RunningSandbox);
    const configured: Target = external ?? embeddedTarget(sandbox as RunningSandbox, given.tuning);
    const { redactor, reportNet } = redactorsFor(credentials, configured.tokenParams);

    // Only the cluster may reach a k6-operator target: each runner's first token request is the check there.
    const checked =
      given.operatorDir === undefined
        ? await preflight(configured, credentials, redactor, io.signal)
        : undefined;
    if (checked === undefined) {
      io.stderr.write(
        "event-harness: the pre-run token check is left out: the manifests are written without contacting the target; each runner's first token request checks it in the cluster\n",
      );
    }
    const expiresInSeconds = checked?.expiresInSeconds ?? given.expiresIn;
    // The VUs authenticate the way the preflight found to work; the switch is said once, before k6 starts.
    const target: Target = { ...configured, clientAuth: checked?.clientAuth ?? configured.clientAuth };
    if (checked?.refusedClientAuth !== undefined) {
      const clientId = credentials[0]?.clientId ?? configured.clientId;
      const { clientAuth, refusedClientAuth } = checked;
      io.stderr.write(`event-harness: ${switchedNote(clientId, { clientAuth, refusedClientAuth })}\n`);
    }
    if (
      expiresInSeconds !== undefined &&
      settings.marginSeconds !== undefined &&
      settings.marginSeconds >= expiresInSeconds / 2
    ) {
      throw new UsageError(
        "invalid-value",
        `--expires-margin ${settings.marginSeconds} leaves no room in expires_in ${expiresInSeconds}s (keep it under half)`,
        "load",
      );
    }

    const runId = `${given.scenario}-${compactTimestamp(started)}-${randomBytes(2).toString("hex")}`;
    const dataFile = path.join(reportDir, "event-templates.json");
    await writeEventTemplates(dataFile, {
      runId,
      seed: settings.seed,
      channelId: target.channelId,
      events: settings.events,
    });
    // Into the report, so a run keeps the exact script k6 ran and an installed package is never written to; for
    // k6-operator the archive carries the script, so it is bundled aside.
    const bundleDir =
      given.operatorDir === undefined
        ? reportDir
        : await mkdtemp(path.join(tmpdir(), "event-harness-bundle-"));
    const [bundle] = await bundleLoadScenarios([given.scenario], bundleDir);
    const { config, plan } = planRun(
      runVariables({ settings, target, credentials, runId, dataFile, expiresInSeconds }),
      given.scenario,
    );
    const maxSeconds = plan.maxSeconds + WATCHDOG_SLACK_SECONDS;
    if (expiresInSeconds !== undefined) checkPlanLength(given.scenario, maxSeconds, expiresInSeconds);
    const targetRecord = targetRecordOf(target, !external);
    // Before any load: a baseline that cannot be read, or was taken with other settings, is refused with exit 2.
    const baselineStep = await BaselineStep.prepare({
      config,
      plan,
      reportDir,
      versions: { harness: packageJson.version, k6: k6.version },
      runId,
      startedAt: started,
      target: {
        embedded: !external,
        origin: originOf(target.baseUrl),
        ...(sandbox ? { sandbox: { latencyMs: settings.sandboxLatencyMs, faults: [...given.faults] } } : {}),
      },
      // A k6-operator run is compared after load-merge: a baseline from the environment waits for that.
      baselines: given.operatorDir === undefined ? baselinePaths(options.baseline, io.env) : [],
      saveBaseline: options["save-baseline"],
      compareOptions: given.compareOptions,
      failOn: given.failOn,
      allowLatencyChange: options["allow-latency-change"] === true,
      ledger: given.ledger,
    });
    return {
      scenario: given.scenario,
      settings,
      faults: given.faults,
      started,
      runId,
      reportDir,
      operator: given.operatorDir !== undefined,
      k6,
      sandbox,
      target,
      targetRecord,
      redactor,
      reportNet,
      dataFile,
      script: (bundle as { file: string }).file,
      bundleDir,
      config,
      plan,
      context: reportContext(
        config,
        plan,
        target.connection.insecure ? [INSECURE_WARNING] : [],
        runOverrides(options, io, { allowLatencyChange: options["allow-latency-change"] === true }),
      ),
      maxSeconds,
      ledger: given.ledger,
      baselineStep,
      quiet: options.quiet === true,
    };
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
}
