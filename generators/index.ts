export { bodyClasses } from "./body-space.ts";
export { calendarClasses } from "./calendar-space.ts";
export { channelClasses } from "./channel-space.ts";
export { emailClasses } from "./email-space.ts";
export { envelopeClasses } from "./envelope-space.ts";
export type { EventGenerator, EventGeneratorOptions } from "./event-generator.ts";
export {
  createEventGenerator,
  GENERATOR_DEFAULTS,
  MAX_CHANNEL_POOL,
  MAX_SEED,
  RUN_ID_PATTERN,
} from "./event-generator.ts";
export type { BodyEncoding, EventInput } from "./event-input.ts";
export { TOKEN_SLOT } from "./event-input.ts";
export {
  dateClasses,
  dateViolationArbitrary,
  deepValue,
  silentClasses,
  silentInputArbitrary,
  structureClasses,
  structureInputArbitrary,
  typeClasses,
  typeViolationArbitrary,
  validInputArbitrary,
} from "./event-mutations.ts";
export { EXAMPLE_EMAIL_DOMAINS, isExampleEmail } from "./example-email.ts";
export type { InputClass, InputExpectation } from "./input-class.ts";
export { classKey } from "./input-class.ts";
export type { InputSpaceClasses } from "./input-space.ts";
export { createInputSpace } from "./input-space.ts";
export type { InvalidVariant } from "./invalid-variant.ts";
export { isRejectedAt } from "./invalid-variant.ts";
export { findInvalidVariant, INVALID_VARIANT_NAMES, INVALID_VARIANTS } from "./invalid-variants.ts";
export type { JsonPath } from "./json-edit.ts";
export { jsonGrammarClasses } from "./json-grammar-space.ts";
export type { JsonText } from "./json-text.ts";
export { nestingDepth, RawNumber, RepeatedKeys, toJsonText } from "./json-text.ts";
export { NDJSON_CHUNK_SIZE, ndjsonChunks, toNdjsonLine } from "./ndjson.ts";
export { stringClasses, UNICODE_CATEGORIES } from "./string-space.ts";
export type { TokenClientAuth, TokenRequestShape } from "./token-classes.ts";
export { swapCase, tokenFieldClasses, tokenFormClasses } from "./token-classes.ts";
export type {
  FormField,
  TokenFormExpectation,
  TokenFormInput,
  TokenFormPlan,
} from "./token-form-mutations.ts";
export { renderTokenForm, tokenFormPlanArbitrary } from "./token-form-mutations.ts";
export { validClasses } from "./valid-classes.ts";
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
