import { z } from "zod";

/** RFC 6749 §3.3: scope is a list of space-delimited scope tokens of printable ASCII other than `"` and `\`. */
const SCOPE_LIST = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/;

/**
 * The access token response (spec: Resources, "Access token response"): the fields the spec's rules use are required,
 * the rest of its example (Keycloak's) only typed. Extra members are allowed: RFC 6749 §5.1 lets servers add them.
 */
export const tokenResponseSchema = z.looseObject({
  /** Spec: "access_token | string (signed token) | Token to send in the Authorization header". */
  access_token: z.string().min(1),
  /** Spec: "expires_in | integer, seconds | Lifetime of the token, counted from its last use"; a lifetime is positive. */
  expires_in: z.int().positive(),
  /** Spec: "refresh_expires_in | integer | 0 when no refresh token is issued". */
  refresh_expires_in: z.int().nonnegative().optional(),
  /**
   * Spec: "token_type | string | Value bearer"; RFC 6749 §5.1 makes the value case-insensitive (production sends "Bearer").
   * Spelled out per letter because JSON Schema patterns carry no flags: `/i` would be lost in the OpenAPI document.
   */
  token_type: z.string().regex(/^[Bb][Ee][Aa][Rr][Ee][Rr]$/, { message: 'Expected "bearer" (any case)' }),
  /** Spec: "not-before-policy | integer | A Unix time stamp (seconds)". */
  "not-before-policy": z.int().nonnegative().optional(),
  /** Spec: "scope | string | Space-separated list of granted scopes". */
  scope: z.string().regex(SCOPE_LIST, { message: "Expected a space-separated list of scopes" }).optional(),
});

/** The fields the spec's rules need of a token response: the token, its type and its lifetime. */
export const TOKEN_RULE_FIELDS = ["access_token", "token_type", "expires_in"] as const;

/** Fields of the spec's example response that no rule of it (nor RFC 6749) requires: Keycloak's own. */
export const SPEC_EXAMPLE_FIELDS = ["refresh_expires_in", "not-before-policy"] as const;

export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The scopes the spec shows ("profile and email"), compared as a set because production sends "email profile". */
export const SPEC_SCOPES: readonly string[] = ["profile", "email"];

/** Splits a scope string into its set of scope tokens. */
export function scopeSet(scope: string): ReadonlySet<string> {
  return new Set(scope.split(" ").filter((token) => token.length > 0));
}
