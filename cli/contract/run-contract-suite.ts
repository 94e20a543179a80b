import { randomInt } from "node:crypto";
import type { ContractSettings } from "../../contracts/index.ts";
import { CannotRunError, ContractRunError, UsageError } from "../../core/index.ts";
import { MAX_SEED } from "../../generators/index.ts";
import packageJson from "../../package.json" with { type: "json" };
import type { ContractRun } from "../../reporting/contract/index.ts";
import { EMBEDDED_SANDBOX_NOTE, formatDuration } from "../../reporting/index.ts";
import type { acceptedOption } from "../accepted-option.ts";
import type { CommandIo, ParsedOptions } from "../command.ts";
import { didYouMean } from "../did-you-mean.ts";
import { exitCodeOf } from "../exit-codes.ts";
import { interruption } from "../interruption.ts";
import { parseChoice, parseInteger } from "../option-values.ts";
import { setUpRun } from "../run-setup.ts";
import type { runTimeoutOption } from "../run-timeout-option.ts";
import { parseSandboxFaults } from "../sandbox-fault-option.ts";
import type { targetOptions } from "../target-options.ts";
import { EMBEDDED_EXPIRES_IN, embeddedTarget } from "../target-options.ts";
import { reportContractRun } from "./report-contract-run.ts";

/** The option values the contract suite reads, as `event-harness contract` parses them. */
export interface ContractOptionValues
  extends ParsedOptions<typeof targetOptions & typeof runTimeoutOption & typeof acceptedOption> {
  profile?: string;
  "report-dir"?: string;
  only?: readonly string[];
  seed?: string;
  "sandbox-expires-in"?: string;
  "sandbox-fault"?: readonly string[];
}

/**
 * The contract suite from options to exit code: checks the options, starts the embedded sandbox when no target is
 * given, runs the checks and writes the reports.
 */
export async function runContractSuite(options: ContractOptionValues, io: CommandIo): Promise<number> {
  // Loaded here, not at the top: vitest and the sandbox are heavy, and other commands never need them.
  const {
    ALL_CHECKS,
    defaultRunBudgetMs,
    lifetimeMarginSeconds,
    MAX_STRETCHED_RUN_MS,
    PROFILES,
    Redactor,
    selectChecks,
    unknownSelectors,
  } = await import("../../contracts/index.ts");
  const { runContract } = await import("./run-contract.ts");
  const { diagnoseTarget, switchedNote } = await import("../preflight/index.ts");
  const { describeTarget } = await import("../../reporting/contract/index.ts");
  const profile = parseChoice("profile", options.profile, PROFILES, "fast");
  const only = (options.only ?? [])
    .flatMap((value) => value.split(","))
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = unknownSelectors(only);
  if (unknown.length > 0) {
    const known = [...new Set(ALL_CHECKS.flatMap((check) => [check.id, check.area]))];
    throw new UsageError(
      "invalid-value",
      `--only names no check: ${unknown.join(", ")}${didYouMean(unknown[0] ?? "", known)}`,
    );
  }
  const seed = parseInteger("seed", options.seed, { min: 0, max: MAX_SEED, fallback: randomInt(MAX_SEED) });
  const expiresIn = parseInteger("sandbox-expires-in", options["sandbox-expires-in"], {
    min: 1,
    max: 3600,
    fallback: EMBEDDED_EXPIRES_IN,
  });
  const faults = await parseSandboxFaults(options["sandbox-fault"] ?? [], "contract");
  const { external, tuning, runTimeoutMs, ledger, reportDir } = await setUpRun(
    options,
    io,
    { command: "contract", defaultReportDir: "reports/contract", runTimeout: true },
    (external) => {
      if (external && (faults.length > 0 || options["sandbox-expires-in"] !== undefined)) {
        throw new UsageError(
          "invalid-config",
          "--sandbox-fault and --sandbox-expires-in apply only to the embedded sandbox",
        );
      }
    },
  );
  const started = Date.now();
  const deadline = {
    startedAt: started,
    budgetMs: runTimeoutMs ?? defaultRunBudgetMs(tuning.timeoutMs),
    fixed: runTimeoutMs !== undefined,
  };
  const sandbox = external
    ? undefined
    : await (await import("../../sandbox/index.ts")).startSandbox({ port: 0, expiresIn, faults });
  try {
    const configured = external ?? embeddedTarget(sandbox as NonNullable<typeof sandbox>, tuning);
    const secret = configured.clientSecret.reveal();
    const redactor = new Redactor().add(secret, "<CLIENT_SECRET>").addBasic(configured.clientId, secret);
    // The harness's words go out as they are; only the URLs the user gave are redacted, as values.
    const say = (text: string) => io.stderr.write(text);
    const url = (value: string) => redactor.redact(value);
    const runOf = (checks: ContractRun["checks"], extra: Partial<ContractRun>): ContractRun => ({
      tool: { name: packageJson.name, version: packageJson.version },
      suite: `contract (${profile})`,
      profile,
      seed,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      target: describeTarget(configured),
      checks,
      ...(io.signal.aborted ? { aborted: interruption(io.signal) } : {}),
      ...extra,
    });
    say(
      `Contract ${profile} profile against ${url(configured.baseUrl)} (token endpoint ${url(configured.tokenUrl)}, client authentication ${configured.clientAuth})` +
        `${sandbox ? `, ${EMBEDDED_SANDBOX_NOTE}${faults.length > 0 ? ` with fault ${faults.join(", ")}` : ""}` : ""}\n`,
    );
    // Diagnose before judging: a target that cannot be tested is said once and judged not at all.
    let ready: Awaited<ReturnType<typeof diagnoseTarget>> = { clientAuth: configured.clientAuth };
    try {
      // The embedded sandbox is the harness's own: its faults are there to be judged, not diagnosed away.
      if (!sandbox)
        ready = await diagnoseTarget(
          configured,
          { clientId: configured.clientId, clientSecret: secret },
          redactor,
          io.signal,
          { requireToken: false },
        );
    } catch (error) {
      if (!(error instanceof CannotRunError)) throw error;
      say(`event-harness: ${error.message}\n`);
      const skipped = selectChecks(profile, only).map((check) => ({
        id: check.id,
        title: check.title,
        area: check.area,
        level: check.level,
        rule: check.rule,
        status: "SKIP" as const,
        message: "not run: the preflight could not test the target",
        durationMs: 0,
        evidence: [],
      }));
      return await reportContractRun(
        runOf(skipped, { couldNotTest: error.message }),
        reportDir,
        redactor,
        io,
        ledger,
      );
    }
    const note = switchedNote(configured.clientId, ready);
    if (note !== undefined) say(`event-harness: ${note}\n`);
    const target = { ...configured, clientAuth: ready.clientAuth };
    if (profile === "full") {
      say(
        `Sliding-expiry probes wait about expires_in + max(2 s, 10 %)${sandbox ? ` = ${expiresIn + lifetimeMarginSeconds(expiresIn)} s` : ""}.\n`,
      );
    }
    say(
      `Deadline: ${formatDuration(tuning.timeoutMs)} per request, ${formatDuration(deadline.budgetMs)} for the run` +
        `${deadline.fixed ? " (--run-timeout)" : profile === "full" ? `, stretched to the sliding-expiry probes' horizon (${formatDuration(MAX_STRETCHED_RUN_MS)} at most)` : ""}.\n`,
    );
    const settings: ContractSettings = {
      target: { ...target, clientSecret: secret },
      profile,
      only,
      seed,
      runId: `c${started.toString(36)}`,
      deadline,
    };
    const checks = await runContract(settings, {
      onProgress: (_checkId, message) => say(`  … ${message}\n`),
      signal: io.signal,
    });
    return await reportContractRun(
      runOf(checks, { target: describeTarget(target) }),
      reportDir,
      redactor,
      io,
      ledger,
    );
  } catch (error) {
    if (error instanceof ContractRunError) {
      io.stderr.write(`event-harness: ${error.message}\n`);
      return exitCodeOf(error);
    }
    throw error;
  } finally {
    await sandbox?.close();
  }
}
