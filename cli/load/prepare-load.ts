import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { UsageError } from "../../core/index.ts";
import type { K6Binary } from "../../k6-tooling/index.ts";
import { bundleLoadScenarios, ensureK6, writeEventTemplates } from "../../k6-tooling/index.ts";
import type { ClientCredential, RunConfig, ScenarioName, ScenarioPlan } from "../../load/index.ts";
import { planScenario, readRunConfig } from "../../load/index.ts";
import packageJson from "../../package.json" with { type: "json" };
import type { Ledger } from "../../reporting/accepted/index.ts";
import type { ReportContext } from "../../reporting/load/index.ts";
import { reportContext } from "../../reporting/load/index.ts";
import type { RunningSandbox } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { INSECURE_WARNING } from "../../transport/connection/index.ts";
import type { Target } from "../../transport/index.ts";
import { mapTokenEndpointFacts, Redactor, tokenEndpointFacts } from "../../transport/index.ts";
import type { CommandIo } from "../command.ts";
import { compactTimestamp } from "../compact-timestamp.ts";
import { embeddedTarget } from "../options/target-options.ts";
import { switchedNote } from "../preflight/index.ts";
import { claimReportDir, createReportDir } from "../report-dir.ts";
import { BaselineStep } from "./baseline-step.ts";
import { capacityObjectives, objectiveKeys } from "./capacity-objectives.ts";
import { displayUrl } from "./display-url.ts";
import { preflight } from "./load-preflight.ts";
import type { CheckedLoad, LoadSettings } from "./load-settings.ts";
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

/** Where the reports go: a directory this run alone writes, claimed before k6 is fetched. */
async function readyReportDir(
  { scenario, operatorDir, reportDir }: CheckedLoad,
  started: Date,
): Promise<string> {
  if (operatorDir !== undefined) return claimReportDir(operatorDir, "--k6-operator", "load");
  if (reportDir) return claimReportDir(reportDir, "--report-dir", "load");
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
 * Prepares a load run from its checked options: readies the report folder and k6, starts the embedded sandbox when
 * no target is given, checks the target's tokens, generates the bodies and bundles and plans the scenario. Whoever
 * gets the prepared run stops its sandbox; if preparing fails, it stops it itself.
 */
export async function prepareLoad(given: CheckedLoad, io: CommandIo): Promise<PreparedLoad> {
  const { settings, external } = given;
  // Before k6 is fetched and the first request: a run whose reports cannot be written is not started.
  const started = new Date();
  const reportDir = await readyReportDir(given, started);
  const k6 = await ensureK6({ env: io.env, stderr: io.stderr, signal: io.signal });

  const sandbox: RunningSandbox | undefined = external
    ? undefined
    : await startSandbox({
        port: 0,
        expiresIn: settings.sandboxExpiresIn,
        faults: given.faults,
        latencyMs: settings.sandboxLatencyMs,
        ...(settings.sandboxThroughput === undefined ? {} : { throughputLimit: settings.sandboxThroughput }),
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
        ...(sandbox
          ? {
              sandbox: {
                latencyMs: settings.sandboxLatencyMs,
                faults: [...given.faults],
                ...(settings.sandboxThroughput === undefined
                  ? {}
                  : { throughputLimit: settings.sandboxThroughput }),
              },
            }
          : {}),
      },
      baselines: given.baselines,
      saveBaseline: given.saveBaseline,
      compareOptions: given.compareOptions,
      failOn: given.failOn,
      allowLatencyChange: given.allowLatencyChange,
      ledger: given.ledger,
      ...(given.scenario === "capacity"
        ? { capacityObjectives: objectiveKeys(capacityObjectives(config, plan)) }
        : {}),
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
        given.overrides,
      ),
      maxSeconds,
      ledger: given.ledger,
      baselineStep,
      quiet: given.quiet,
    };
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
}
