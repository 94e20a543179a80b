import { randomInt } from "node:crypto";
import type { FuzzOptions, Profile, Redactor, Target } from "../../contracts/index.ts";
import { UsageError } from "../../core/index.ts";
import { MAX_SEED } from "../../generators/index.ts";
import type { Ledger } from "../../reporting/accepted/index.ts";
import type { FaultName, RunningSandbox } from "../../sandbox/index.ts";
import type { CommandIo } from "../command.ts";
import { didYouMean } from "../did-you-mean.ts";
import { configSourceOf } from "../options/config-options.ts";
import type { ContractOptionValues } from "../options/contract-options.ts";
import { contractOptions } from "../options/contract-options.ts";
import { parseFuzzOptions } from "../options/fuzz-options.ts";
import { argvOf } from "../options/option-argv.ts";
import { parseChoice, parseInteger } from "../options/parse-option-value.ts";
import { parseSandboxFaults } from "../options/sandbox-fault-option.ts";
import type { TargetTuning } from "../options/target-options.ts";
import { EMBEDDED_EXPIRES_IN, embeddedTarget } from "../options/target-options.ts";
import { rerunCommand } from "../rerun-command.ts";
import { runOverrides } from "../run-overrides.ts";
import { setUpRun } from "../run-setup.ts";

/** What the contract options ask for, checked. */
interface ContractChoices {
  readonly profile: Profile;
  readonly only: readonly string[];
  readonly seed: number;
  readonly expiresIn: number;
  readonly faults: readonly FaultName[];
  readonly fuzz: FuzzOptions;
}

/** A contract run ready to execute: what to run, against which target, and where its reports go. */
export interface PreparedContract extends ContractChoices {
  readonly tuning: TargetTuning;
  readonly ledger: Ledger | undefined;
  readonly reportDir: string;
  /** Epoch ms: the run's start, which its reports and the run id carry. */
  readonly started: number;
  readonly deadline: { readonly startedAt: number; readonly budgetMs: number; readonly fixed: boolean };
  /** The embedded sandbox when no target was given; the caller closes it. */
  readonly sandbox: RunningSandbox | undefined;
  /** The target as the user configured it (or the embedded sandbox's), before the preflight. */
  readonly configured: Target;
  readonly redactor: Redactor;
  /** No progress lines while checks wait (--quiet). */
  readonly quiet: boolean;
  /** What the user set over the harness's own choice or the config file, names only: every report lists them. */
  readonly overrides: readonly string[];
  /** The command line that repeats this run where it ran, for the replay of a counterexample. */
  readonly rerun: string;
}

async function parseContractChoices(options: ContractOptionValues): Promise<ContractChoices> {
  const {
    ALL_CHECKS,
    FUZZ_DEFAULTS,
    PROFILES,
    PROPERTY_CHECK_IDS,
    replayPathProblem,
    selectChecks,
    unknownSelectors,
  } = await import("../../contracts/index.ts");
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
  // Checks that exist but only in the full profile: an empty run would prove nothing.
  if (only.length > 0 && selectChecks(profile, only).length === 0) {
    throw new UsageError(
      "invalid-value",
      `--only ${only.join(",")} selects no check of the ${profile} profile: add --profile full`,
    );
  }
  const seed = parseInteger("seed", options.seed, { min: 0, max: MAX_SEED, fallback: randomInt(MAX_SEED) });
  const expiresIn = parseInteger("sandbox-expires-in", options["sandbox-expires-in"], {
    ...contractOptions["sandbox-expires-in"].range,
    fallback: EMBEDDED_EXPIRES_IN,
  });
  const faults = await parseSandboxFaults(options["sandbox-fault"] ?? [], "contract");
  const properties = selectChecks(profile, only)
    .map((check) => check.id)
    .filter((id) => PROPERTY_CHECK_IDS.includes(id));
  const fuzz = parseFuzzOptions(options, FUZZ_DEFAULTS[profile], properties, replayPathProblem);
  return { profile, only, seed, expiresIn, faults, fuzz };
}

/** A contract run's options read and checked once: nothing after this touches the raw options. */
export interface CheckedContract extends ContractChoices {
  /** The target the user named, or undefined for the embedded sandbox. */
  readonly external: Target | undefined;
  readonly tuning: TargetTuning;
  /** The user's fixed run deadline, undefined for the derived one. */
  readonly runTimeoutMs: number | undefined;
  readonly ledger: Ledger | undefined;
  readonly reportDir: string;
  readonly quiet: boolean;
  readonly overrides: readonly string[];
  readonly rerun: string;
}

/**
 * The one reading of the contract options: checks them, resolves the target, reads the ledger and makes the report
 * directory before anything is sent.
 */
export async function readContractOptions(
  options: ContractOptionValues,
  io: CommandIo,
): Promise<CheckedContract> {
  const choices = await parseContractChoices(options);
  const { faults } = choices;
  const { external, tuning, runTimeoutMs, ledger, reportDir } = await setUpRun(
    options,
    io,
    { command: "contract", defaultReportParent: "reports/contract", runTimeout: true },
    (external) => {
      if (external && (faults.length > 0 || options["sandbox-expires-in"] !== undefined)) {
        throw new UsageError(
          "invalid-config",
          "--sandbox-fault and --sandbox-expires-in apply only to the embedded sandbox",
        );
      }
    },
  );
  // What decides which checks run and what they send; a replay adds its own --seed, --only and --fuzz-replay.
  const repeated: Record<string, string | readonly string[]> = { profile: choices.profile };
  for (const name of ["sandbox-fault", "sandbox-expires-in", "fuzz-runs", "accepted"] as const) {
    const value = options[name];
    if (value !== undefined) repeated[name] = value;
  }
  return {
    ...choices,
    external,
    tuning,
    runTimeoutMs,
    ledger,
    reportDir,
    quiet: options.quiet === true,
    overrides: runOverrides(options, io),
    rerun: rerunCommand(["contract", ...argvOf(repeated)], external, configSourceOf(io.env)),
  };
}

/** A checked run ready to execute: its deadline set and the embedded sandbox started when no target is given. */
export async function prepareContract(checked: CheckedContract): Promise<PreparedContract> {
  const { defaultRunBudgetMs, targetRedactor } = await import("../../contracts/index.ts");
  const { external, tuning, runTimeoutMs, expiresIn, faults } = checked;
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
    const { external: _external, runTimeoutMs: _runTimeoutMs, ...run } = checked;
    return { ...run, started, deadline, sandbox, configured, redactor: targetRedactor(configured) };
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
}
