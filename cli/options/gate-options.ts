// No imports but the spec type: the load, run and compare commands show these in --help without loading the
// comparison or ledger machinery; a test checks the defaults written here against DEFAULT_COMPARE_OPTIONS.
import type { OptionSpecs, ParsedOptions } from "../command.ts";

/** The ledger of accepted deviations, for every command that judges checks or load gates. */
export const acceptedOption = {
  accepted: {
    type: "string",
    valueName: "FILE",
    env: "EVENT_HARNESS_ACCEPTED",
    description:
      "Ledger of accepted deviations (JSON: accepted: [{id, reason, ticket, expires, environment, target}]): a " +
      "failing accepted check or load gate is WAIVED until its expires date, then fails again; an entry bound to an " +
      "environment or target applies only there.",
  },
} as const satisfies OptionSpecs;

/** The options that tune a baseline comparison, shared by `load` and `compare`. */
export const compareOptionDefinitions = {
  "min-change-pct": {
    type: "string",
    valueName: "P",
    range: { min: 0, max: 1000 },
    description:
      "A latency change matters from this % of the baseline's value (default 20); the larger of this and --min-change-ms applies.",
  },
  "min-change-ms": {
    type: "string",
    valueName: "MS",
    range: { min: 0, max: 600_000 },
    description: "A latency change matters from this many ms (default 5).",
  },
  "min-change-failure-pct": {
    type: "string",
    valueName: "P",
    range: { min: 0, max: 1000 },
    description:
      "A failure-rate change matters from this many percentage points (default 1, or half the baseline's rate if larger).",
  },
  "min-change-accepted-pct": {
    type: "string",
    valueName: "P",
    range: { min: 0, max: 1000 },
    description: "An accepted-rate change matters from this % of the baseline's rate (default 5).",
  },
  "min-change-capacity-pct": {
    type: "string",
    valueName: "P",
    range: { min: 0, max: 1000 },
    description:
      "A capacity change matters from this % of the baseline's capacity (default 10): beyond both searches' resolution, a drop larger than this reads REGRESSED.",
  },
  window: {
    type: "string",
    valueName: "D",
    description: "Also judge each window of this length on its own, the warm-up excluded (default 60s).",
  },
  "allow-latency-change": {
    type: "boolean",
    description:
      "Compare with a baseline whose embedded sandbox added another latency (a slowdown simulated on purpose, as in a regression demo); every report names it. Without it such a baseline is refused (exit 2).",
  },
  "fail-on": {
    type: "string",
    valueName: "WHAT",
    description:
      "What fails the run (exit 1): regressed (default: a REGRESSED figure) or inconclusive (an INCONCLUSIVE comparison too).",
  },
} as const satisfies OptionSpecs;

/** The comparison options as parsed. */
export type CompareOptionValues = ParsedOptions<typeof compareOptionDefinitions>;

/** A load run's baseline: the one it is compared with, and where it is saved for later runs. */
export const baselineOptions = {
  baseline: {
    type: "string",
    valueName: "FILE",
    env: "EVENT_HARNESS_BASELINE",
    description:
      "Compare this run with a baseline (a file --save-baseline wrote, a load report dir, or a run's report dir: the baseline of this scenario): a REGRESSED figure fails the run.",
  },
  "save-baseline": {
    type: "string",
    valueName: "FILE",
    description: "Save this run, when it passed, as a baseline for later runs (one portable JSON file).",
  },
} as const satisfies OptionSpecs;
