import { randomInt } from "node:crypto";
import { UsageError } from "../../core/index.ts";
import { MAX_SEED } from "../../generators/index.ts";
import type { EventsKind } from "../../k6-tooling/run/event-templates.ts";
import { EVENTS_KINDS } from "../../k6-tooling/run/event-templates.ts";
import type { ClientModel, ScenarioName } from "../../load/index.ts";
import {
  CLIENT_MODELS,
  groupThresholds,
  MAX_RUN_SECONDS,
  parseDurationSeconds,
  parseThresholdArgument,
  SCENARIOS,
} from "../../load/index.ts";
import { MAX_SANDBOX_LATENCY_MS } from "../../sandbox/index.ts";
import type { LoadOptionValues } from "../options/load-options.ts";
import { parseChoice, parseInteger, parseNumber } from "../options/parse-option-value.ts";
import { EMBEDDED_EXPIRES_IN } from "../options/target-options.ts";

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
}

function usage(message: string, code: "invalid-value" | "invalid-config" = "invalid-value"): UsageError {
  return new UsageError(code, message, "load");
}

/** Reads and checks the load options; every problem is a UsageError (exit 2) naming the option. */
export function readLoadSettings(scenario: ScenarioName, options: LoadOptionValues): LoadSettings {
  const spec = SCENARIOS[scenario];
  if (options.rate !== undefined && !spec.usesRate) {
    throw usage(`--rate does not apply to ${scenario} (a closed model: use --vus)`, "invalid-config");
  }
  let durationSeconds: number | undefined;
  if (options.duration !== undefined) {
    durationSeconds = parseDurationSeconds(options.duration);
    if (durationSeconds === undefined || durationSeconds < 1 || durationSeconds > MAX_RUN_SECONDS) {
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
  const instances = parseInteger("instances", options.instances, { min: 1, max: 64, fallback: 1 });
  const fileOut = (options.out ?? []).find((out) => /^(json|csv)(=|$)/.test(out));
  if (instances > 1 && fileOut !== undefined) {
    throw usage(
      `--out ${fileOut} with --instances ${instances} would have ${instances} k6 processes write one file: each instance already keeps its CSV samples in instance-N/`,
      "invalid-config",
    );
  }
  return {
    scenario,
    rate:
      options.rate === undefined
        ? undefined
        : parseNumber("rate", options.rate, { min: 0.01, max: 100_000, fallback: 1 }),
    durationSeconds,
    vus:
      options.vus === undefined
        ? undefined
        : parseInteger("vus", options.vus, { min: 1, max: 10_000, fallback: 1 }),
    instances,
    clientModel:
      options["client-model"] === undefined
        ? undefined
        : parseChoice("client-model", options["client-model"], CLIENT_MODELS, spec.defaults.clientModel),
    marginSeconds:
      options["expires-margin"] === undefined
        ? undefined
        : parseNumber("expires-margin", options["expires-margin"], { min: 0, max: 3600, fallback: 0 }),
    thresholds: groupThresholds(thresholdArgs),
    outs: options.out ?? [],
    seed: parseInteger("seed", options.seed, { min: 0, max: MAX_SEED, fallback: randomInt(MAX_SEED) }),
    events: parseChoice("events", options.events, EVENTS_KINDS, "plain"),
    sandboxExpiresIn: parseInteger("sandbox-expires-in", options["sandbox-expires-in"], {
      min: 1,
      max: 86_400,
      fallback: EMBEDDED_EXPIRES_IN,
    }),
    sandboxLatencyMs: parseInteger("sandbox-latency", options["sandbox-latency"], {
      min: 0,
      max: MAX_SANDBOX_LATENCY_MS,
      fallback: 0,
    }),
  };
}
