import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { acceptedOption, compareOptionDefinitions } from "./gate-options.ts";

/** The compare command's options: what a change that matters is, what fails the comparison, the ledger. */
export const compareCommandOptions = {
  ...compareOptionDefinitions,
  ...acceptedOption,
} as const satisfies OptionSpecs;

/** The compare command's option values, as `event-harness compare` parses them. */
export type CompareCommandValues = ParsedOptions<typeof compareCommandOptions>;
