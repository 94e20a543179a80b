import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { acceptedOption, baselineOptions, compareOptionDefinitions } from "./gate-options.ts";
import { loadPartOptions, thresholdOption } from "./load-options.ts";
import { runTimeoutOption } from "./run-timeout-option.ts";
import { targetOptions } from "./target-options.ts";

/** The run command's options: its parts, their load and rotation settings, the gate and the target. */
export const runOptions = {
  parts: {
    type: "string",
    valueName: "LIST",
    description:
      "Parts to run, comma-separated: contract, load, rotation (default: all; with a target: contract).",
  },
  profile: {
    type: "string",
    valueName: "NAME",
    description:
      "Contract profile: full (default here, as the run is the release verdict: adds the sliding-expiry checks) or fast. `contract` defaults to fast, for quick feedback while developing.",
  },
  scenario: {
    type: "string",
    multiple: true,
    valueName: "NAME[=D]",
    description: "Load scenario and optional duration (default: sustained=10s and idle-gap).",
  },
  // Handed to each load part that takes them, as given; --rate only to the open scenarios.
  ...loadPartOptions,
  rate: {
    ...loadPartOptions.rate,
    description:
      "Events per second for the open load scenarios (sustained, ramp, spike, soak; capacity: its first step).",
  },
  threshold: {
    ...thresholdOption.threshold,
    description: `Every load part: ${thresholdOption.threshold.description}`,
  },
  "expect-old": {
    type: "string",
    valueName: "WHAT",
    description: "Target rotation check: refused or accepted, what the old secret should get.",
  },
  "expect-old-tokens": {
    type: "string",
    valueName: "WHAT",
    description: "Target rotation check: valid or revoked, what earlier tokens should be.",
  },
  "report-dir": {
    type: "string",
    valueName: "DIR",
    description: "Where the run's reports go; must be new or empty (default reports/<run-id>).",
  },
  "sandbox-fault": {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description:
      "Start the embedded sandbox of the contract and load parts with this fault, to see them fail; the faults are listed by `event-harness sandbox --help`.",
  },
  baseline: {
    type: "string",
    multiple: true,
    valueName: "FILE",
    env: baselineOptions.baseline.env,
    description:
      "Compare each load part with its scenario's baseline: a file load --save-baseline wrote, a load report dir, or an earlier run's report dir (one baseline per scenario); its chart shows the baseline's band.",
  },
  "fail-on": compareOptionDefinitions["fail-on"],
  "allow-latency-change": compareOptionDefinitions["allow-latency-change"],
  "sandbox-latency": {
    type: "string",
    valueName: "MS",
    description: "Milliseconds the embedded sandbox of the load parts adds before every answer (default 0).",
  },
  quiet: {
    type: "boolean",
    description:
      "No progress lines from the contract and load parts (by default: on a terminal one line rewritten in place, in a log one line every 30 s at most).",
  },
  ...runTimeoutOption,
  ...acceptedOption,
  ...targetOptions,
} as const satisfies OptionSpecs;

/** The run command's option values, as `event-harness run` parses them. */
export type RunOptionValues = ParsedOptions<typeof runOptions>;
