import { randomBytes } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Target } from "../../contracts/index.ts";
import { CannotRunError, UsageError } from "../../core/index.ts";
import type { ScenarioName } from "../../load/index.ts";
import {
  isScenarioName,
  parseDurationSeconds,
  parseThresholdArgument,
  SCENARIO_NAMES,
} from "../../load/index.ts";
import { MAX_SANDBOX_LATENCY_MS } from "../../sandbox/index.ts";
import { resolveLedger } from "../accepted-ledger.ts";
import type { CommandIo } from "../command.ts";
import { compactTimestamp } from "../compact-timestamp.ts";
import { baselineFor, baselinePaths, readBaselineSet } from "../compare/baseline-set.ts";
import { readFailOn } from "../compare/read-compare-options.ts";
import { didYouMean } from "../did-you-mean.ts";
import { displayPath } from "../display-path.ts";
import { resolveTargetWithIssuer } from "../issuer-target.ts";
import type { LoadPartSettings } from "../load/load-settings.ts";
import { readLoadPartSettings } from "../load/load-settings.ts";
import { acceptedOption } from "../options/gate-options.ts";
import { loadPartOptions } from "../options/load-options.ts";
import { parseChoice, parseInteger } from "../options/parse-option-value.ts";
import { OLD_SECRET_ENV, OLD_TOKEN_ENV } from "../options/rotation-options.ts";
import type { RunOptionValues } from "../options/run-options.ts";
import { resolveRunTimeoutMs, runTimeoutEnvironment } from "../options/run-timeout-option.ts";
import { parseSandboxFaults } from "../options/sandbox-fault-option.ts";
import { httpUrl, pick } from "../options/target-options.ts";
import { checkRotationInputs } from "../rotation/rotation-inputs.ts";
import { runOverrides } from "../run-overrides.ts";
import { targetEnvironment } from "./target-environment.ts";

export const PARTS = ["contract", "load", "rotation"] as const;
export type PartName = (typeof PARTS)[number];
const PROFILES = ["fast", "full"] as const;
/** Short enough that everything against the embedded sandbox takes about a minute. */
const DEFAULT_SCENARIOS: readonly ScenarioChoice[] = [
  { name: "sustained", duration: "10s" },
  { name: "idle-gap" },
];
const EXPECT_OLD = ["refused", "accepted"] as const;
const EXPECT_OLD_TOKENS = ["valid", "revoked"] as const;

export interface ScenarioChoice {
  readonly name: ScenarioName;
  readonly duration?: string;
}

/** The load options `run` hands its load parts, as flags. */
const LOAD_PART_FLAGS = Object.keys(loadPartOptions).map((name) => `--${name}`);

function given(value: unknown): boolean {
  return value !== undefined;
}

/** "a and b", "a, b and c". */
function spokenList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function list(raw: readonly string[] | undefined): string[] {
  return (raw ?? [])
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
}

function parseParts(raw: string | undefined, embedded: boolean): PartName[] {
  // With a named target only the contract suite runs unless asked: load sends real traffic, rotation needs secrets.
  if (raw === undefined) return embedded ? [...PARTS] : ["contract"];
  const named = list([raw]);
  const unknown = named.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (named.length === 0 || unknown.length > 0) {
    throw new UsageError(
      "invalid-value",
      `--parts takes a comma-separated list of ${PARTS.join(", ")}, got '${raw}'${unknown[0] === undefined ? "" : didYouMean(unknown[0], PARTS)}`,
      "run",
    );
  }
  return PARTS.filter((part) => named.includes(part));
}

function parseScenarios(raw: readonly string[] | undefined): ScenarioChoice[] {
  if (raw === undefined || raw.length === 0) return [...DEFAULT_SCENARIOS];
  const choices = list(raw).map((item): ScenarioChoice => {
    const [name = "", duration] = item.split("=", 2);
    if (!isScenarioName(name)) {
      throw new UsageError(
        "invalid-value",
        `--scenario takes NAME[=DURATION] with NAME one of ${SCENARIO_NAMES.join(", ")}, got '${item}'${didYouMean(name, SCENARIO_NAMES)}`,
        "run",
      );
    }
    if (duration !== undefined && !(Number(parseDurationSeconds(duration)) > 0)) {
      throw new UsageError(
        "invalid-value",
        `--scenario ${name}=${duration}: a duration is k6-style (90s, 5m, 1h30m) or seconds`,
        "run",
      );
    }
    return duration === undefined ? { name } : { name, duration };
  });
  const names = choices.map((choice) => choice.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined)
    throw new UsageError("invalid-value", `--scenario ${repeated} is given twice`, "run");
  return choices;
}

/** Everything the run will do, read and checked before anything starts (a mistake is exit 2, with nothing run). */
export interface RunSettings {
  readonly started: Date;
  readonly runId: string;
  readonly runDir: string;
  readonly external: Target | undefined;
  /**
   * The issuer whose metadata nobody answered for, and why: the target could not be tested, so no part runs, yet the
   * run is reported (exit 3) as any other it could not test.
   */
  readonly unreadIssuer?: { readonly issuer: string; readonly reason: string };
  readonly parts: readonly PartName[];
  readonly profile: (typeof PROFILES)[number];
  readonly scenarios: readonly ScenarioChoice[];
  /** The load options handed to each load part that takes them (--rate). */
  readonly loadPart: LoadPartSettings;
  /** --threshold for every load part, checked here. */
  readonly thresholds?: readonly string[];
  readonly expectOld: string | undefined;
  readonly expectOldTokens: string | undefined;
  readonly faults: readonly string[];
  /** Milliseconds the load parts' embedded sandbox adds before every answer; undefined for none. */
  readonly sandboxLatency: string | undefined;
  /** Each load scenario's baseline file (a baseline holds one scenario); none without --baseline. */
  readonly baselines: Readonly<Partial<Record<ScenarioName, string>>>;
  /** --fail-on for the load parts' comparisons. */
  readonly failOn: string | undefined;
  /** --allow-latency-change for the load parts' comparisons. */
  readonly allowLatencyChange?: boolean;
  /** The ledger of accepted deviations every part is judged with, as a path the parts and the user can open. */
  readonly accepted: string | undefined;
  /** No progress lines from the parts (--quiet). */
  readonly quiet?: boolean;
}

/** The run's options read and checked once: its settings, and what the parts and the reports take of the options. */
export interface CheckedRun extends RunSettings {
  /** The target options and the run deadline as the environment variables each part reads. */
  readonly partEnv: Readonly<Record<string, string>>;
  /** What the user set over the harness's own choice or the config file, names only: every report lists them. */
  readonly overrides: readonly string[];
}

/** The one reading of the run's options: a mistake is exit 2 before anything starts, and nothing after reads them. */
export async function readSettings(
  options: RunOptionValues,
  env: NodeJS.ProcessEnv,
  io: Pick<CommandIo, "signal" | "stderr" | "configFilled" | "configOverrides">,
): Promise<CheckedRun> {
  const started = new Date();
  // Resolved once for the whole run (with --issuer, the metadata is read here only): each part is handed it.
  let external: Target | undefined;
  let unreadIssuer: RunSettings["unreadIssuer"];
  try {
    external = await resolveTargetWithIssuer(options, env, io);
  } catch (error) {
    const issuer = pick(options, env, "issuer");
    if (!(error instanceof CannotRunError) || issuer === undefined) throw error;
    unreadIssuer = { issuer: httpUrl("issuer", issuer), reason: error.message };
  }
  // Checked here so a bad value is a usage error before any part runs; the contract part reads it again.
  resolveRunTimeoutMs(options["run-timeout"], env);
  const embedded = external === undefined && unreadIssuer === undefined;
  const parts = parseParts(options.parts, embedded);
  const loadPart = readLoadPartSettings(options);
  const expectOld =
    options["expect-old"] === undefined
      ? undefined
      : parseChoice("expect-old", options["expect-old"], EXPECT_OLD, "refused");
  const expectOldTokens =
    options["expect-old-tokens"] === undefined
      ? undefined
      : parseChoice("expect-old-tokens", options["expect-old-tokens"], EXPECT_OLD_TOKENS, "valid");
  const faults = await parseSandboxFaults(list(options["sandbox-fault"]), "run");
  const misplaced: string[] = [];
  // A config file's profile and scenarios serve the parts that use them; only a flag for a part not run is a mistake.
  const fromFile = new Set(io.configFilled ?? []);
  const flagGiven = (flag: "profile" | "scenario") => options[flag] !== undefined && !fromFile.has(flag);
  if (flagGiven("profile") && !parts.includes("contract")) {
    misplaced.push("--profile needs the contract part");
  }
  if ((flagGiven("scenario") || Object.values(loadPart).some(given)) && !parts.includes("load")) {
    misplaced.push(`${spokenList(["--scenario", ...LOAD_PART_FLAGS])} need the load part`);
  }
  const thresholds = list(options.threshold);
  for (const threshold of thresholds) {
    try {
      parseThresholdArgument(threshold);
    } catch (error) {
      throw new UsageError("invalid-value", `--threshold ${(error as Error).message}`, "run");
    }
  }
  if (options.threshold !== undefined && !fromFile.has("threshold") && !parts.includes("load")) {
    misplaced.push("--threshold needs the load part");
  }
  if ((expectOld ?? expectOldTokens) !== undefined) {
    if (embedded) {
      misplaced.push(
        "--expect-old and --expect-old-tokens apply to a target (the embedded rotation check rotates without overlap or revocation and expects exactly that)",
      );
    } else if (!parts.includes("rotation")) {
      misplaced.push("--expect-old and --expect-old-tokens need the rotation part");
    }
  }
  if (faults.length > 0) {
    if (!embedded) misplaced.push("--sandbox-fault applies only to the embedded sandbox");
  }
  const sandboxLatency =
    options["sandbox-latency"] === undefined
      ? undefined
      : String(
          parseInteger("sandbox-latency", options["sandbox-latency"], {
            min: 0,
            max: MAX_SANDBOX_LATENCY_MS,
            fallback: 0,
          }),
        );
  if (sandboxLatency !== undefined) {
    if (!embedded) misplaced.push("--sandbox-latency applies only to the embedded sandbox");
    else if (!parts.includes("load")) misplaced.push("--sandbox-latency needs the load part");
  }
  // A baseline from the environment or the config file serves the runs that have load parts; only the flag is
  // a mistake without one.
  const baselineGiven = parts.includes("load") ? baselinePaths(options.baseline, env) : [];
  if (options.baseline !== undefined && !parts.includes("load"))
    misplaced.push("--baseline needs the load part");
  if (options["fail-on"] !== undefined) {
    readFailOn(options);
    if (baselineGiven.length === 0) misplaced.push("--fail-on needs --baseline");
  }
  if (options["allow-latency-change"] === true && baselineGiven.length === 0)
    misplaced.push("--allow-latency-change needs --baseline");
  if (misplaced.length > 0) throw new UsageError("invalid-config", misplaced.join("; "), "run");
  if (external !== undefined && parts.includes("rotation")) {
    // The rotation part would refuse these only after the other parts ran: checked before anything starts.
    checkRotationInputs(
      {
        ...(env[OLD_SECRET_ENV]?.trim() ? { oldSecret: env[OLD_SECRET_ENV].trim() } : {}),
        ...(env[OLD_TOKEN_ENV]?.trim() ? { oldToken: env[OLD_TOKEN_ENV].trim() } : {}),
        ...(expectOld === undefined ? {} : { expectOld }),
        ...(expectOldTokens === undefined ? {} : { expectOldTokens }),
      },
      external.clientSecret.reveal(),
      { oldSecret: OLD_SECRET_ENV, oldToken: OLD_TOKEN_ENV },
      "run",
    );
  }

  const scenarios = parseScenarios(options.scenario);
  const baselines = await scenarioBaselines(baselineGiven, scenarios);
  const ledger = options.accepted ?? env[acceptedOption.accepted.env];

  const runId = `${compactTimestamp(started)}-${randomBytes(2).toString("hex")}`;
  const runDir = path.resolve(options["report-dir"] ?? path.join("reports", runId));
  const existing = await stat(runDir).catch(() => undefined);
  if (existing && (!existing.isDirectory() || (await readdir(runDir)).length > 0)) {
    throw new UsageError(
      "invalid-config",
      `--report-dir ${displayPath(runDir)} exists and is not empty: give a new directory, so two runs never mix`,
      "run",
    );
  }
  const profile = parseChoice("profile", options.profile, PROFILES, "full");
  // Read before any part, so a malformed ledger is exit 2 with nothing run; each part reads it again, from the
  // --accepted its command line shows.
  await resolveLedger(options.accepted, env);
  const allowLatencyChange = options["allow-latency-change"] === true;
  const configOverrides = io.configOverrides === undefined ? {} : { configOverrides: io.configOverrides };
  return {
    started,
    runId,
    runDir,
    external,
    ...(unreadIssuer === undefined ? {} : { unreadIssuer }),
    parts,
    profile,
    scenarios,
    loadPart,
    thresholds,
    expectOld,
    expectOldTokens,
    faults,
    sandboxLatency,
    baselines,
    failOn: options["fail-on"],
    allowLatencyChange,
    accepted: ledger === undefined || ledger.trim() === "" ? undefined : path.resolve(ledger.trim()),
    quiet: options.quiet === true,
    // Target options given as flags reach the parts as environment variables, so no secret is ever an argv.
    partEnv: { ...targetEnvironment(options, env), ...runTimeoutEnvironment(options["run-timeout"], env) },
    overrides: runOverrides(options, { env, ...configOverrides }, { allowLatencyChange }),
  };
}

/**
 * Each scenario's baseline, read and validated before anything runs: with one scenario, the one baseline given
 * (other settings are refused by its part, naming them); with several, the one recorded for each scenario.
 */
async function scenarioBaselines(
  given: readonly string[],
  scenarios: readonly ScenarioChoice[],
): Promise<Partial<Record<ScenarioName, string>>> {
  if (given.length === 0) return {};
  const set = await readBaselineSet(given, "run");
  const out: Partial<Record<ScenarioName, string>> = {};
  for (const { name } of scenarios) {
    const baseline = baselineFor(set, name, "run", scenarios.length > 1);
    if (baseline !== undefined) out[name] = baseline.file;
  }
  return out;
}
