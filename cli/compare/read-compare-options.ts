import { UsageError } from "../../core/index.ts";
import { parseDurationSeconds } from "../../load/index.ts";
import type { CompareOptions, FailOn } from "../../reporting/compare/index.ts";
import { DEFAULT_COMPARE_OPTIONS, FAIL_ON_CHOICES } from "../../reporting/compare/index.ts";
import type { CompareOptionValues } from "../options/gate-options.ts";
import { compareOptionDefinitions } from "../options/gate-options.ts";
import { parseChoice, parseNumber } from "../options/parse-option-value.ts";

const defaults = DEFAULT_COMPARE_OPTIONS;

/** --fail-on: regressed (the default) or inconclusive; anything else is a usage error naming the choices. */
export function readFailOn(options: CompareOptionValues): FailOn {
  return parseChoice("fail-on", options["fail-on"], FAIL_ON_CHOICES, "regressed");
}

/** Reads the comparison options; a bad value is a usage error naming the option. */
export function readCompareOptions(options: CompareOptionValues, command: string): CompareOptions {
  const pct = (
    name: "min-change-pct" | "min-change-failure-pct" | "min-change-accepted-pct" | "min-change-capacity-pct",
    fallback: number,
  ) =>
    parseNumber(name, options[name], { ...compareOptionDefinitions[name].range, fallback: fallback * 100 }) /
    100;
  let windowSeconds = defaults.windowSeconds;
  if (options.window !== undefined) {
    const parsed = parseDurationSeconds(options.window);
    if (parsed === undefined || parsed < 1) {
      throw new UsageError(
        "invalid-value",
        `--window takes a duration of at least 1s, got '${options.window}'`,
        command,
      );
    }
    windowSeconds = parsed;
  }
  return {
    ...defaults,
    latencyFloor: {
      relative: pct("min-change-pct", defaults.latencyFloor.relative),
      absolute: parseNumber("min-change-ms", options["min-change-ms"], {
        ...compareOptionDefinitions["min-change-ms"].range,
        fallback: defaults.latencyFloor.absolute,
      }),
    },
    failureFloor: {
      ...defaults.failureFloor,
      absolute: pct("min-change-failure-pct", defaults.failureFloor.absolute),
    },
    acceptedFloor: {
      ...defaults.acceptedFloor,
      relative: pct("min-change-accepted-pct", defaults.acceptedFloor.relative),
    },
    capacityFloor: {
      ...defaults.capacityFloor,
      relative: pct("min-change-capacity-pct", defaults.capacityFloor.relative),
    },
    windowSeconds,
  };
}
