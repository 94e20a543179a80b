export type { CheckoutEvent, EventStrictness, ProductionEvent } from "./event.ts";
export {
  CHANNEL_PREFIX,
  completeEventSchema,
  EMAIL_PATTERN,
  EVENT_STRICTNESS,
  eventSchemas,
  lenientEventSchema,
  productionEventSchema,
  TRANSACTION_DATE_PATTERN,
  transactionDateSchema,
} from "./event.ts";
export type { SchemaDirection, SchemaName } from "./json-schema.ts";
export { NAMED_SCHEMAS, SCHEMA_NAMES, toJsonSchema } from "./json-schema.ts";
export type { TokenError } from "./token-error.ts";
export { TOKEN_ERROR_CODES, tokenErrorSchema } from "./token-error.ts";
export { isLifetime, lifetimeProblem } from "./token-lifetime.ts";
export type { TokenRequest } from "./token-request.ts";
export { SPEC_TOKEN_PATH, tokenRequestSchema } from "./token-request.ts";
export type { TokenResponse } from "./token-response.ts";
export {
  SPEC_EXAMPLE_FIELDS,
  SPEC_SCOPES,
  scopeSet,
  TOKEN_RULE_FIELDS,
  tokenResponseSchema,
} from "./token-response.ts";
export type { QuoteValue } from "./value-kind.ts";
export { valueKind } from "./value-kind.ts";
