import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { fuzzOptions } from "./fuzz-options.ts";
import { acceptedOption } from "./gate-options.ts";
import { runTimeoutOption } from "./run-timeout-option.ts";
import { EMBEDDED_EXPIRES_IN, targetOptions } from "./target-options.ts";

/** The contract command's options: the profile and checks, the embedded sandbox, the search, deadlines, the target. */
export const contractOptions = {
  profile: {
    type: "string",
    valueName: "NAME",
    description:
      "fast (default, for quick feedback while developing) or full (adds the sliding-expiry checks, about expires_in more). `run` defaults to full: it is the release verdict.",
  },
  "report-dir": {
    type: "string",
    valueName: "DIR",
    description:
      "Where results.json, junit.xml and summary.md go: a new or empty directory (default reports/contract/<time>).",
  },
  only: {
    type: "string",
    multiple: true,
    valueName: "IDS",
    description: "Run only these check ids or areas, comma-separated (e.g. bearer,token.issued).",
  },
  seed: {
    type: "string",
    valueName: "N",
    description: "Seed for the generated probe events (default random, printed in results.json).",
  },
  "sandbox-expires-in": {
    type: "string",
    valueName: "S",
    range: { min: 1, max: 3600 },
    description: `expires_in of the embedded sandbox (default ${EMBEDDED_EXPIRES_IN}).`,
  },
  "sandbox-fault": {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description:
      "Start the embedded sandbox with this fault, to see checks fail; the faults are listed by `event-harness sandbox --help`.",
  },
  quiet: {
    type: "boolean",
    description:
      "No progress lines while checks wait (by default: on a terminal one line rewritten in place, in a log one line every 30 s at most).",
  },
  ...fuzzOptions,
  ...runTimeoutOption,
  ...acceptedOption,
  ...targetOptions,
} as const satisfies OptionSpecs;

/** The contract command's option values, as `event-harness contract` parses them. */
export type ContractOptionValues = ParsedOptions<typeof contractOptions>;
