import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { acceptedOption } from "./gate-options.ts";

/** The load-merge command's options: the plan the runners ran, where the merged reports go, the ledger. */
export const loadMergeOptions = {
  plan: {
    type: "string",
    valueName: "FILE",
    description: "The plan.json `load --k6-operator` wrote (default ./plan.json).",
  },
  "report-dir": {
    type: "string",
    valueName: "DIR",
    description:
      "Where the merged reports go: a new or empty directory (default: merged/ beside the plan, or merged-2/ and so on when one exists).",
  },
  ...acceptedOption,
} as const satisfies OptionSpecs;

/** The option values, as the command parses them. */
export type LoadMergeOptionValues = ParsedOptions<typeof loadMergeOptions>;
