export type { EventGenerator, EventGeneratorOptions } from "./event-generator.ts";
export {
  createEventGenerator,
  GENERATOR_DEFAULTS,
  MAX_CHANNEL_POOL,
  MAX_SEED,
  RUN_ID_PATTERN,
} from "./event-generator.ts";
export type { EventInput } from "./event-mutations.ts";
export {
  dateViolationArbitrary,
  deepValue,
  silentInputArbitrary,
  structureInputArbitrary,
  typeViolationArbitrary,
  validInputArbitrary,
} from "./event-mutations.ts";
export { EXAMPLE_EMAIL_DOMAINS, isExampleEmail } from "./example-email.ts";
export type { InputSpaceArbitraries } from "./input-space.ts";
export { createInputSpace } from "./input-space.ts";
export type { InvalidVariant } from "./invalid-variant.ts";
export { isRejectedAt } from "./invalid-variant.ts";
export { findInvalidVariant, INVALID_VARIANT_NAMES, INVALID_VARIANTS } from "./invalid-variants.ts";
export type { JsonPath } from "./json-edit.ts";
export type { JsonText } from "./json-text.ts";
export { nestingDepth, RawNumber, RepeatedKeys, toJsonText } from "./json-text.ts";
export { NDJSON_CHUNK_SIZE, ndjsonChunks, toNdjsonLine } from "./ndjson.ts";
export type {
  FormField,
  TokenFormExpectation,
  TokenFormInput,
  TokenFormPlan,
} from "./token-form-mutations.ts";
export { renderTokenForm, tokenFormPlanArbitrary } from "./token-form-mutations.ts";
export type { WideEventOptions } from "./wide-event.ts";
export {
  MAX_REFERENCE_TAIL,
  REFERENCE_STEM_SLOT,
  referenceTail,
  wideDate,
  wideEmail,
  wideEventArbitrary,
  wideSystem,
  wideSystemVersion,
} from "./wide-event.ts";
export type { WriteOutcome } from "./write-chunks.ts";
export { writeChunks } from "./write-chunks.ts";
