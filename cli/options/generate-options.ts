import { GENERATOR_DEFAULTS, MAX_CHANNEL_POOL, MAX_SEED } from "../../generators/index.ts";
import type { OptionSpecs, ParsedOptions } from "../command.ts";

/** Large enough for any k6 data file, small enough that a typo cannot fill a disk unnoticed. */
export const MAX_COUNT = 10_000_000;

/** The generate command's options: how many events, from which seed, valid or invalid, and where they go. */
export const generateOptions = {
  count: {
    type: "string",
    valueName: "N",
    range: { min: 1, max: MAX_COUNT },
    description: `Valid events to generate, 1 to ${MAX_COUNT.toLocaleString("en-US")} (rounds with --invalid all).`,
  },
  seed: {
    type: "string",
    valueName: "S",
    range: { min: 0, max: MAX_SEED },
    description: `Seed, 0 to ${MAX_SEED}: the same seed gives the same events (default random, printed on stderr).`,
  },
  invalid: {
    type: "string",
    valueName: "NAME|all",
    description: "Emit invalid bodies made by one variant, or by all of them.",
  },
  "with-meta": {
    type: "boolean",
    description: 'With --invalid: wrap each line as {"variant","violates","rule","path","body"}.',
  },
  "list-invalid": {
    type: "boolean",
    description: "List the invalid variants (name, violates, path, rule) and exit.",
  },
  out: {
    type: "string",
    valueName: "FILE",
    description: "Write to FILE instead of stdout, creating parent folders ('-' means stdout).",
  },
  "run-id": {
    type: "string",
    valueName: "ID",
    description:
      "Run id in every reference (default s<seed>); pass a fresh one if the target keeps references unique.",
  },
  channels: {
    type: "string",
    valueName: "N",
    range: { min: 1, max: MAX_CHANNEL_POOL },
    description: `Size of the seeded channel pool, 1 to ${MAX_CHANNEL_POOL} (default ${GENERATOR_DEFAULTS.channels}).`,
  },
} as const satisfies OptionSpecs;

/** The option values, as the command parses them. */
export type GenerateOptionValues = ParsedOptions<typeof generateOptions>;
