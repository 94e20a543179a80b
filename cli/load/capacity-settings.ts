import { UsageError } from "../../core/index.ts";
import type { Resolution } from "../../load/index.ts";
import {
  DEFAULT_STEP_SECONDS,
  DEFAULT_STEP_WARM_UP_SECONDS,
  parseDurationSeconds,
} from "../../load/index.ts";
import type { CapacityOptionValues } from "../options/capacity-options.ts";
import { capacityOptions } from "../options/capacity-options.ts";
import { parseInteger, parseNumber } from "../options/parse-option-value.ts";

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

const CAPACITY_FLAGS = Object.keys(capacityOptions) as (keyof CapacityOptionValues)[];

function usage(message: string): UsageError {
  return new UsageError("invalid-value", message, "load");
}

/** `5%` (a share of the rate held) or `25` (events a second). */
function parseResolution(raw: string): Resolution {
  const { min, max } = capacityOptions.resolution.range;
  const text = raw.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent !== null) {
    const value = Number(percent[1]) / 100;
    if (value > 0 && value <= 0.5) return { kind: "relative", value };
  } else if (/^\d+(?:\.\d+)?$/.test(text) && Number(text) >= min && Number(text) <= max) {
    return { kind: "absolute", value: Number(text) };
  }
  throw usage(
    `--resolution takes a share of the rate held above 0% and up to 50% (e.g. 5%) or events a second from ${min} (e.g. 25), got '${raw}'`,
  );
}

function seconds(name: "step-duration" | "step-warm-up", raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const { min, max } = capacityOptions[name].range;
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
      ...capacityOptions["max-rate"].range,
      fallback: CAPACITY_DEFAULTS.maxRate,
    }),
    resolution:
      options.resolution === undefined ? CAPACITY_DEFAULTS.resolution : parseResolution(options.resolution),
    factor: parseNumber("step-factor", options["step-factor"], {
      ...capacityOptions["step-factor"].range,
      fallback: CAPACITY_DEFAULTS.factor,
    }),
    maxSteps: parseInteger("max-steps", options["max-steps"], {
      ...capacityOptions["max-steps"].range,
      fallback: CAPACITY_DEFAULTS.maxSteps,
    }),
    stepSeconds: seconds("step-duration", options["step-duration"], DEFAULT_STEP_SECONDS),
    stepWarmUpSeconds: seconds("step-warm-up", options["step-warm-up"], DEFAULT_STEP_WARM_UP_SECONDS),
  };
}
