// No imports: the load and compare commands show these in --help without loading the comparison machinery; a test
// checks the defaults written here against DEFAULT_COMPARE_OPTIONS.
/** The options that tune a baseline comparison, shared by `load` and `compare`. */
export const compareOptionDefinitions = {
  "min-change-pct": {
    type: "string",
    valueName: "P",
    description:
      "A latency change matters from this % of the baseline's value (default 20); the larger of this and --min-change-ms applies.",
  },
  "min-change-ms": {
    type: "string",
    valueName: "MS",
    description: "A latency change matters from this many ms (default 5).",
  },
  "min-change-failure-pct": {
    type: "string",
    valueName: "P",
    description:
      "A failure-rate change matters from this many percentage points (default 1, or half the baseline's rate if larger).",
  },
  "min-change-accepted-pct": {
    type: "string",
    valueName: "P",
    description: "An accepted-rate change matters from this % of the baseline's rate (default 5).",
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
} as const;

/** The load command's own baseline options, and the sandbox latency that shows one regress. */
export const loadBaselineOptionDefinitions = {
  "sandbox-latency": {
    type: "string",
    valueName: "MS",
    description:
      "Milliseconds the embedded sandbox adds before every answer, to see a baseline comparison regress.",
  },
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
} as const;
