import type { OptionSpecs, ParsedOptions } from "../command.ts";
import { targetOptions } from "./target-options.ts";

/** The servers the document names, from the target options of the same names (and their variables). */
export const addressOptions = {
  "auth-url": targetOptions["auth-url"],
  "token-url": targetOptions["token-url"],
  "base-url": targetOptions["base-url"],
} as const satisfies OptionSpecs;

/** The openapi command's options: where the document goes, which strictness, one schema alone, the servers it names. */
export const openapiOptions = {
  out: {
    type: "string",
    valueName: "FILE",
    description: "Write to FILE instead of stdout, creating parent folders ('-' means stdout).",
  },
  strictness: {
    type: "string",
    valueName: "LEVEL",
    description:
      "Which event fields the request body requires: production (default: type, customer.email, channel.id, transaction.reference), complete or lenient.",
  },
  schema: {
    type: "string",
    valueName: "NAME",
    description:
      "Write one standalone JSON Schema (2020-12) instead of the document: event (at --strictness) or token-response.",
  },
  ...addressOptions,
} as const satisfies OptionSpecs;

/** The option values, as the command parses them. */
export type OpenapiOptionValues = ParsedOptions<typeof openapiOptions>;
