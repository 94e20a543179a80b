import { randomInt } from "node:crypto";
import type { ContractSettings } from "../../contracts/index.ts";
import { MAX_SEED } from "../../generators/index.ts";
import packageJson from "../../package.json" with { type: "json" };
import type { ContractRun } from "../../reporting/contract/index.ts";
import { formatDuration } from "../../reporting/index.ts";
import { defineCommand } from "../command.ts";
import { ExitCode } from "../exit-codes.ts";
import { interruption } from "../interruption.ts";
import { resolveTargetWithIssuer } from "../issuer-target.ts";
import { parseChoice, parseInteger } from "../option-values.ts";
import { resolveRunTimeoutMs, runTimeoutOption } from "../run-timeout-option.ts";
import { parseSandboxFaults } from "../sandbox-fault-option.ts";
import {
  EMBEDDED_EXPIRES_IN,
  embeddedTarget,
  resolveTargetTuning,
  targetOptions,
} from "../target-options.ts";
import { UsageError } from "../usage-error.ts";
import { prepareWritableDir } from "../writable-dir.ts";
import { reportContractRun } from "./report-contract-run.ts";

export const contractCommand = defineCommand({
  name: "contract",
  summary: "Check that a target keeps the API contract (token issuance, bearer, events, sliding expiry)",
  usage: "contract [--profile fast|full] [--report-dir DIR] [--only IDS] [target options]",
  description: [
    "Runs the Pactum contract suite under vitest. With no target, the embedded sandbox is started and checked.",
    "The full profile adds the sliding-expiry checks, which wait about expires_in + max(2 s, 10 %).",
    "Give the client secret in EVENT_API_CLIENT_SECRET: it and every access token are redacted from all output.",
    "Exit codes: 0 no check failed (warnings allowed), 1 a check failed, 2 usage or configuration error,",
    "3 could not decide (target unreachable, timeouts) and nothing failed.",
    "Every request has one deadline (--timeout) for connect, headers and body; the run has one too (--run-timeout):",
    "when it passes, unfinished checks are ERROR and the reports are still written.",
  ].join("\n"),
  options: {
    profile: {
      type: "string",
      valueName: "NAME",
      description: "fast (default) or full (adds the sliding-expiry checks).",
    },
    "report-dir": {
      type: "string",
      valueName: "DIR",
      description: "Where results.json, junit.xml and summary.md go (default reports/contract).",
    },
    only: {
      type: "string",
      multiple: true,
      valueName: "IDS",
      description: "Run only these check ids or areas, comma-separated (e.g. bearer,token.issued).",
    },
    seed: {
      type: "string",
      valueName: "N",
      description: "Seed for the generated probe events (default random, printed in results.json).",
    },
    "sandbox-expires-in": {
      type: "string",
      valueName: "S",
      description: `expires_in of the embedded sandbox (default ${EMBEDDED_EXPIRES_IN}).`,
    },
    "sandbox-fault": {
      type: "string",
      multiple: true,
      valueName: "NAME",
      description: "Start the embedded sandbox with this fault, to see checks fail.",
    },
    ...runTimeoutOption,
    ...targetOptions,
  },
  examples: [
    "event-harness contract",
    "event-harness contract --profile full --sandbox-fault expiry-fixed",
    "EVENT_API_CLIENT_SECRET=… event-harness contract --auth-url https://auth.example.com --base-url https://api.example.com --client-id my-client",
    "EVENT_API_CLIENT_SECRET=… NODE_EXTRA_CA_CERTS=ca.pem event-harness contract --client-auth basic \\\n    --token-url https://sso.example.com/realms/r/protocol/openid-connect/token --base-url https://api.example.com --client-id my-client",
  ],
  async run({ options, io }) {
    // Loaded here, not at the top: vitest and the sandbox are heavy, and other commands never need them.
    const {
      ContractRunError,
      defaultRunBudgetMs,
      lifetimeMarginSeconds,
      MAX_STRETCHED_RUN_MS,
      PROFILES,
      Redactor,
      runContract,
      unknownSelectors,
    } = await import("../../contracts/index.ts");
    const { describeTarget } = await import("../../reporting/contract/index.ts");
    const profile = parseChoice("profile", options.profile, PROFILES, "fast");
    const only = (options.only ?? [])
      .flatMap((value) => value.split(","))
      .map((id) => id.trim())
      .filter(Boolean);
    const unknown = unknownSelectors(only);
    if (unknown.length > 0)
      throw new UsageError("invalid-value", `--only names no check: ${unknown.join(", ")}`);
    const seed = parseInteger("seed", options.seed, { min: 0, max: MAX_SEED, fallback: randomInt(MAX_SEED) });
    const expiresIn = parseInteger("sandbox-expires-in", options["sandbox-expires-in"], {
      min: 1,
      max: 3600,
      fallback: EMBEDDED_EXPIRES_IN,
    });
    const faults = await parseSandboxFaults(options["sandbox-fault"] ?? [], "contract");
    const external = await resolveTargetWithIssuer(options, io.env, io);
    const tuning = resolveTargetTuning(options, io.env);
    const runTimeoutMs = resolveRunTimeoutMs(options["run-timeout"], io.env);
    if (external && (faults.length > 0 || options["sandbox-expires-in"] !== undefined)) {
      throw new UsageError(
        "invalid-config",
        "--sandbox-fault and --sandbox-expires-in apply only to the embedded sandbox",
      );
    }

    // Before the sandbox and the first request: a run whose reports cannot be written is not started.
    const reportDir = await prepareWritableDir(
      options["report-dir"] ?? "reports/contract",
      "--report-dir",
      "contract",
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
      const target = external ?? embeddedTarget(sandbox as NonNullable<typeof sandbox>, tuning);
      const secret = target.clientSecret.reveal();
      const redactor = new Redactor().add(secret, "<CLIENT_SECRET>").addBasic(target.clientId, secret);
      // The harness's words go out as they are; only the URLs the user gave are redacted, as values.
      const say = (text: string) => io.stderr.write(text);
      const url = (value: string) => redactor.redact(value);
      say(
        `Contract ${profile} profile against ${url(target.baseUrl)} (token endpoint ${url(target.tokenUrl)}, client authentication ${target.clientAuth})` +
          `${sandbox ? `, embedded sandbox${faults.length > 0 ? ` with fault ${faults.join(", ")}` : ""}` : ""}\n`,
      );
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
      const run: ContractRun = {
        tool: { name: packageJson.name, version: packageJson.version },
        suite: `contract (${profile})`,
        profile,
        seed,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        target: describeTarget(target),
        checks,
        ...(io.signal.aborted ? { aborted: interruption(io.signal) } : {}),
      };
      return await reportContractRun(run, reportDir, redactor, io);
    } catch (error) {
      if (error instanceof ContractRunError) {
        io.stderr.write(`event-harness: ${error.message}\n`);
        return ExitCode.undecided;
      }
      throw error;
    } finally {
      await sandbox?.close();
    }
  },
});
