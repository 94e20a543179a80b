import { z } from "zod";

/** RFC 6749 §5.2 error codes. */
export const TOKEN_ERROR_CODES = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
] as const;

/** RFC 6749 §3.3/§5.2: error_description is printable ASCII other than `"` and `\`. */
const ERROR_TEXT = /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/;

/**
 * A token error response (RFC 6749 §5.2); the spec shows none ("Errors: not shown"), so this is SHOULD, not MUST.
 * Extra members are allowed, as in a success response.
 */
export const tokenErrorSchema = z.looseObject({
  error: z.enum(TOKEN_ERROR_CODES),
  error_description: z.string().regex(ERROR_TEXT).optional(),
  error_uri: z.url().optional(),
});

export type TokenError = z.infer<typeof tokenErrorSchema>;
