import { UsageError } from "../../core/index.ts";
import type { Resolution } from "../../load/index.ts";
import {
  DEFAULT_STEP_SECONDS,
  DEFAULT_STEP_WARM_UP_SECONDS,
  parseDurationSeconds,
} from "../../load/index.ts";
import { parseInteger, parseNumber } from "../option-values.ts";

/** How `load capacity` searches: the search's shape and its bounds in steps, rate and time. */
export interface CapacitySettings {
  readonly maxRate: number;
  readonly resolution: Resolution;
  readonly factor: number;
  readonly maxSteps: number;
  /** The shortest judged stretch of a step, seconds. */
  readonly stepSeconds: number;
  /** Each step's unjudged warm-up at its rate, seconds. */
  readonly stepWarmUpSeconds: number;
}

export const CAPACITY_DEFAULTS = {
  maxRate: 20_000,
  resolution: { kind: "relative", value: 0.05 } as Resolution,
  factor: 2,
  maxSteps: 15,
} as const;

/** The options only capacity takes. */
export interface CapacityOptionValues {
  "max-rate"?: string;
  resolution?: string;
  "step-factor"?: string;
  "max-steps"?: string;
  "step-duration"?: string;
  "step-warm-up"?: string;
}

const CAPACITY_FLAGS = [
  "max-rate",
  "resolution",
  "step-factor",
  "max-steps",
  "step-duration",
  "step-warm-up",
] as const satisfies readonly (keyof CapacityOptionValues)[];

function usage(message: string): UsageError {
  return new UsageError("invalid-value", message, "load");
}

/** `5%` (a share of the rate held) or `25` (events a second). */
function parseResolution(raw: string): Resolution {
  const text = raw.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent !== null) {
    const value = Number(percent[1]) / 100;
    if (value > 0 && value <= 0.5) return { kind: "relative", value };
  } else if (/^\d+(?:\.\d+)?$/.test(text) && Number(text) >= 1 && Number(text) <= 100_000) {
    return { kind: "absolute", value: Number(text) };
  }
  throw usage(
    `--resolution takes a share of the rate held from 0.1% to 50% (e.g. 5%) or events a second from 1 (e.g. 25), got '${raw}'`,
  );
}

function seconds(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = parseDurationSeconds(raw);
  if (value === undefined || value < min || value > max) {
    throw usage(`--${name} takes a duration from ${min}s to ${max}s (e.g. 10s), got '${raw}'`);
  }
  return value;
}

/**
 * The capacity options, read and checked for `load capacity`; for any other scenario each of them is a usage error
 * (exit 2), and undefined is returned.
 */
export function readCapacitySettings(
  scenario: string,
  options: CapacityOptionValues,
): CapacitySettings | undefined {
  if (scenario !== "capacity") {
    const given = CAPACITY_FLAGS.find((flag) => options[flag] !== undefined);
    if (given !== undefined) {
      throw new UsageError("invalid-config", `--${given} applies only to load capacity`, "load");
    }
    return undefined;
  }
  return {
    maxRate: parseNumber("max-rate", options["max-rate"], {
      min: 1,
      max: 100_000,
      fallback: CAPACITY_DEFAULTS.maxRate,
    }),
    resolution:
      options.resolution === undefined ? CAPACITY_DEFAULTS.resolution : parseResolution(options.resolution),
    factor: parseNumber("step-factor", options["step-factor"], {
      min: 1.1,
      max: 10,
      fallback: CAPACITY_DEFAULTS.factor,
    }),
    maxSteps: parseInteger("max-steps", options["max-steps"], {
      min: 1,
      max: 100,
      fallback: CAPACITY_DEFAULTS.maxSteps,
    }),
    stepSeconds: seconds("step-duration", options["step-duration"], DEFAULT_STEP_SECONDS, 1, 3600),
    stepWarmUpSeconds: seconds("step-warm-up", options["step-warm-up"], DEFAULT_STEP_WARM_UP_SECONDS, 0, 600),
  };
}
