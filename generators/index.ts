export type { EventGenerator, EventGeneratorOptions } from "./event-generator.ts";
export {
  createEventGenerator,
  GENERATOR_DEFAULTS,
  MAX_CHANNEL_POOL,
  MAX_SEED,
  RUN_ID_PATTERN,
} from "./event-generator.ts";
export { EXAMPLE_EMAIL_DOMAINS, isExampleEmail } from "./example-email.ts";
export type { InvalidVariant } from "./invalid-variant.ts";
export { isRejectedAt } from "./invalid-variant.ts";
export { findInvalidVariant, INVALID_VARIANT_NAMES, INVALID_VARIANTS } from "./invalid-variants.ts";
export type { JsonPath } from "./json-edit.ts";
export { NDJSON_CHUNK_SIZE, ndjsonChunks, toNdjsonLine } from "./ndjson.ts";
export type { WriteOutcome } from "./write-chunks.ts";
export { writeChunks } from "./write-chunks.ts";
