import { randomInt } from "node:crypto";
import { UsageError } from "../../core/index.ts";
import { MAX_SEED } from "../../generators/index.ts";
import type { EventsKind } from "../../k6-tooling/index.ts";
import { EVENTS_KINDS } from "../../k6-tooling/index.ts";
import type { ClientCredential, ClientModel, ScenarioName } from "../../load/index.ts";
import {
  CLIENT_MODELS,
  groupThresholds,
  isScenarioName,
  parseDurationSeconds,
  parseThresholdArgument,
  SCENARIO_NAMES,
  SCENARIOS,
} from "../../load/index.ts";
import type { Ledger } from "../../reporting/accepted/index.ts";
import type { CompareOptions, FailOn } from "../../reporting/compare/index.ts";
import type { FaultName } from "../../sandbox/index.ts";
import { MAX_SANDBOX_LATENCY_MS, MAX_SANDBOX_THROUGHPUT } from "../../sandbox/index.ts";
import type { Target } from "../../transport/index.ts";
import { ledgerScope, resolveLedger } from "../accepted-ledger.ts";
import type { CommandIo } from "../command.ts";
import { baselinePaths } from "../compare/baseline-set.ts";
import { readCompareOptions, readFailOn } from "../compare/read-compare-options.ts";
import { didYouMean } from "../did-you-mean.ts";
import { resolveTargetWithIssuer } from "../issuer-target.ts";
import type { LoadOptionValues, LoadPartOptionValues } from "../options/load-options.ts";
import { loadOptions, loadPartOptions } from "../options/load-options.ts";
import { parseChoice, parseInteger, parseNumber } from "../options/parse-option-value.ts";
import { parseSandboxFaults } from "../options/sandbox-fault-option.ts";
import type { TargetTuning } from "../options/target-options.ts";
import { EMBEDDED_EXPIRES_IN, resolveTargetTuning } from "../options/target-options.ts";
import { runOverrides } from "../run-overrides.ts";
import type { CapacitySettings } from "./capacity-settings.ts";
import { readCapacitySettings } from "./capacity-settings.ts";
import { readCredentialsFile } from "./credentials-file.ts";

/** The run settings given on the command line; undefined means the scenario's default. */
export interface LoadSettings {
  readonly scenario: ScenarioName;
  readonly rate: number | undefined;
  readonly durationSeconds: number | undefined;
  readonly vus: number | undefined;
  /** Local k6 processes sharing the run as execution segments (1: a plain k6 run). */
  readonly instances: number;
  readonly clientModel: ClientModel | undefined;
  readonly marginSeconds: number | undefined;
  readonly thresholds: Record<string, string[]>;
  readonly outs: readonly string[];
  readonly seed: number;
  /** Which generator the event bodies come from: the faker one (plain) or the valid-space one (wide). */
  readonly events: EventsKind;
  readonly sandboxExpiresIn: number;
  /** Milliseconds the embedded sandbox adds before every answer. */
  readonly sandboxLatencyMs: number;
  /** Events a second the embedded sandbox serves at most; undefined: no limit. */
  readonly sandboxThroughput: number | undefined;
  /** How capacity searches (capacity only). */
  readonly capacity: CapacitySettings | undefined;
}

/** The settings of the options `run` hands its load parts (cli/options/load-options.ts). */
export interface LoadPartSettings {
  readonly rate: number | undefined;
}

/**
 * A load run's options read and checked once, before anything starts: a mistake here is exit 2 with nothing run,
 * and nothing after this touches the raw options.
 */
export interface CheckedLoad {
  readonly scenario: ScenarioName;
  readonly settings: LoadSettings;
  readonly faults: readonly FaultName[];
  /** The clients of --credentials (or EVENT_API_CREDENTIALS_FILE), when one was given. */
  readonly fileCredentials: readonly ClientCredential[] | undefined;
  /** The target given, or undefined for the embedded sandbox. */
  readonly external: Target | undefined;
  readonly tuning: TargetTuning;
  /** --k6-operator: where the archive and manifests go instead of running. */
  readonly operatorDir: string | undefined;
  /** --expires-in, which only a k6-operator run may give. */
  readonly expiresIn: number | undefined;
  /** --report-dir as given; undefined for a fresh directory under reports/load/. */
  readonly reportDir: string | undefined;
  readonly ledger: Ledger | undefined;
  /** The baselines to compare with (--baseline or EVENT_HARNESS_BASELINE); none for a k6-operator run. */
  readonly baselines: readonly string[];
  readonly saveBaseline: string | undefined;
  readonly compareOptions: CompareOptions;
  readonly failOn: FailOn;
  readonly allowLatencyChange: boolean;
  /** No live progress on stderr (--quiet). */
  readonly quiet: boolean;
  /** What the user set over the harness's own choice or the config file, names only: every report lists them. */
  readonly overrides: readonly string[];
}

function usage(message: string, code: "invalid-value" | "invalid-config" = "invalid-value"): UsageError {
  return new UsageError(code, message, "load");
}

/** Reads and checks the options `run` hands its load parts, as `load` reads them. */
export function readLoadPartSettings(options: LoadPartOptionValues): LoadPartSettings {
  return {
    rate:
      options.rate === undefined
        ? undefined
        : parseNumber("rate", options.rate, { ...loadPartOptions.rate.range, fallback: 1 }),
  };
}

/**
 * The options `run` hands a load part of `scenario`, as the command line that repeats the part shows them: those
 * that apply to it (--rate: the open models only).
 */
export function loadPartOptionsFor(scenario: ScenarioName, settings: LoadPartSettings): LoadPartOptionValues {
  const { rate } = settings;
  return rate === undefined || !SCENARIOS[scenario].usesRate ? {} : { rate: String(rate) };
}

/** Reads and checks the load options; every problem is a UsageError (exit 2) naming the option. */
export function readLoadSettings(scenario: ScenarioName, options: LoadOptionValues): LoadSettings {
  const spec = SCENARIOS[scenario];
  if (options.rate !== undefined && !spec.usesRate) {
    throw usage(`--rate does not apply to ${scenario} (a closed model: use --vus)`, "invalid-config");
  }
  let durationSeconds: number | undefined;
  if (options.duration !== undefined) {
    const { min, max } = loadOptions.duration.range;
    durationSeconds = parseDurationSeconds(options.duration);
    if (durationSeconds === undefined || durationSeconds < min || durationSeconds > max) {
      throw usage(
        `--duration takes a duration from 1s to 168h (e.g. 90s, 5m, 1h30m), got '${options.duration}'`,
      );
    }
  }
  const thresholdArgs = (options.threshold ?? []).map((arg) => {
    try {
      return parseThresholdArgument(arg);
    } catch (error) {
      throw usage(`--threshold ${(error as Error).message}`);
    }
  });
  const instances = parseInteger("instances", options.instances, {
    ...loadOptions.instances.range,
    fallback: 1,
  });
  const capacity = readCapacitySettings(scenario, options);
  const fileOut = (options.out ?? []).find((out) => /^(json|csv)(=|$)/.test(out));
  if (capacity !== undefined && fileOut !== undefined) {
    throw usage(
      `--out ${fileOut} with capacity would have every step's k6 write one file over the last: each step keeps its own summary.json in steps/`,
      "invalid-config",
    );
  }
  if (instances > 1 && fileOut !== undefined) {
    throw usage(
      `--out ${fileOut} with --instances ${instances} would have ${instances} k6 processes write one file: each instance already keeps its CSV samples in instance-N/`,
      "invalid-config",
    );
  }
  return {
    scenario,
    ...readLoadPartSettings(options),
    durationSeconds,
    vus:
      options.vus === undefined
        ? undefined
        : parseInteger("vus", options.vus, { ...loadOptions.vus.range, fallback: 1 }),
    instances,
    clientModel:
      options["client-model"] === undefined
        ? undefined
        : parseChoice("client-model", options["client-model"], CLIENT_MODELS, spec.defaults.clientModel),
    marginSeconds:
      options["expires-margin"] === undefined
        ? undefined
        : parseNumber("expires-margin", options["expires-margin"], {
            ...loadOptions["expires-margin"].range,
            fallback: 0,
          }),
    thresholds: groupThresholds(thresholdArgs),
    outs: options.out ?? [],
    seed: parseInteger("seed", options.seed, { min: 0, max: MAX_SEED, fallback: randomInt(MAX_SEED) }),
    events: parseChoice("events", options.events, EVENTS_KINDS, "plain"),
    sandboxExpiresIn: parseInteger("sandbox-expires-in", options["sandbox-expires-in"], {
      ...loadOptions["sandbox-expires-in"].range,
      fallback: EMBEDDED_EXPIRES_IN,
    }),
    sandboxLatencyMs: parseInteger("sandbox-latency", options["sandbox-latency"], {
      min: 0,
      max: MAX_SANDBOX_LATENCY_MS,
      fallback: 0,
    }),
    capacity,
    sandboxThroughput:
      options["sandbox-throughput"] === undefined
        ? undefined
        : parseInteger("sandbox-throughput", options["sandbox-throughput"], {
            min: 1,
            max: MAX_SANDBOX_THROUGHPUT,
            fallback: 1,
          }),
  };
}

/**
 * The one reading of a load run's options: the scenario and its settings, the sandbox's faults, the credentials
 * file, the target, the baseline and the ledger, each checked against the others, before anything is started.
 */
export async function readLoadOptions(
  scenarioName: string,
  options: LoadOptionValues,
  io: CommandIo,
): Promise<CheckedLoad> {
  if (!isScenarioName(scenarioName)) {
    throw new UsageError(
      "invalid-value",
      `unknown scenario '${scenarioName}'${didYouMean(scenarioName, SCENARIO_NAMES)} (one of: ${SCENARIO_NAMES.join(", ")})`,
      "load",
    );
  }
  const scenario = scenarioName;
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
      options["sandbox-latency"] !== undefined ||
      options["sandbox-throughput"] !== undefined)
  ) {
    throw new UsageError(
      "invalid-config",
      "--sandbox-fault, --sandbox-expires-in, --sandbox-latency and --sandbox-throughput apply only to the embedded sandbox",
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
  if (operatorDir !== undefined && scenario === "capacity") {
    throw new UsageError(
      "invalid-config",
      "capacity picks each step's rate from the steps before it, which a k6-operator run written in advance cannot: run it from a machine that reaches the target (--instances N splits each step over N k6 processes)",
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
  const expiresIn =
    options["expires-in"] === undefined
      ? undefined
      : parseInteger("expires-in", options["expires-in"], {
          ...loadOptions["expires-in"].range,
          fallback: 1,
        });
  if (expiresIn !== undefined && operatorDir === undefined) {
    throw new UsageError(
      "invalid-config",
      "--expires-in applies only with --k6-operator: a run learns expires_in from the target's first token",
      "load",
    );
  }
  if (operatorDir !== undefined && scenario === "idle-gap" && expiresIn === undefined) {
    throw new UsageError(
      "invalid-config",
      "idle-gap with --k6-operator needs --expires-in S, the target's expires_in: its gaps are planned from it, and the manifests are written without asking the target",
      "load",
    );
  }
  const tuning = resolveTargetTuning(options, io.env);
  const ledger = await resolveLedger(options.accepted, io.env, ledgerScope(external, io.env));
  const allowLatencyChange = options["allow-latency-change"] === true;
  return {
    scenario,
    settings,
    faults,
    fileCredentials,
    external,
    tuning,
    operatorDir,
    expiresIn,
    reportDir: options["report-dir"],
    ledger,
    // A k6-operator run is compared after load-merge: a baseline from the environment waits for that.
    baselines: operatorDir === undefined ? baselinePaths(options.baseline, io.env) : [],
    saveBaseline: options["save-baseline"],
    compareOptions,
    failOn,
    allowLatencyChange,
    quiet: options.quiet === true,
    overrides: runOverrides(options, io, { allowLatencyChange }),
  };
}
