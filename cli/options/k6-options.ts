import type { OptionSpecs, ParsedOptions } from "../command.ts";

/** The k6 command's options: build the pinned k6, or print only its path. */
export const k6Options = {
  install: {
    type: "boolean",
    description: "Build the pinned k6 into .tools/bin when no usable k6 is found.",
  },
  "print-path": {
    type: "boolean",
    description: 'Print only the binary\'s path (for scripts: "$(event-harness k6 --print-path)").',
  },
} as const satisfies OptionSpecs;

/** The option values, as the command parses them. */
export type K6OptionValues = ParsedOptions<typeof k6Options>;
