/** Which part of the contract a fault breaks, so reports and the CLI can group them. */
export type FaultArea = "token" | "bearer" | "events" | "expiry" | "transport";

/**
 * Every switchable fault: each one breaks exactly one contract rule, so every contract check can be shown failing.
 * Descriptions are one line; they are printed by `event-harness sandbox --help`.
 */
const CATALOGUE = {
  "token-any-grant-type": { area: "token", description: "any grant_type value yields a token" },
  "token-wrong-secret-accepted": {
    area: "token",
    description: "a known client_id with a wrong client_secret yields a token",
  },
  "token-unknown-client-accepted": { area: "token", description: "an unknown client_id yields a token" },
  "token-missing-expires-in": { area: "token", description: "the token response omits expires_in" },
  "token-string-expires-in": {
    area: "token",
    description: 'the token response sends expires_in as a string ("300")',
  },
  "token-type-mac": { area: "token", description: 'the token response says token_type "mac"' },
  "token-no-example-fields": {
    area: "token",
    description:
      "the token response omits refresh_expires_in and not-before-policy (as oidc-provider's does)",
  },
  "token-opaque": {
    area: "token",
    description: "access_token is a random opaque string, not a signed JWT (the API still accepts it)",
  },
  "token-unsigned": {
    area: "token",
    description: "access tokens are unsigned alg none JWTs (the API accepts them)",
  },
  "token-json-only": {
    area: "token",
    description: "the token endpoint refuses form bodies with 400 and accepts only JSON bodies",
  },
  "token-reissue-broken": {
    area: "token",
    description: "every token after a client's first one is refused by the API",
  },
  "token-no-cache-headers": {
    area: "token",
    description: "the token response omits Cache-Control: no-store and Pragma: no-cache",
  },
  "token-no-basic-auth": {
    area: "token",
    description: "HTTP Basic client authentication is refused with 401 (form credentials still work)",
  },
  "token-basic-only": {
    area: "token",
    description: "client credentials in the form body are refused with 401: only HTTP Basic works",
  },
  "token-basic-unchecked": {
    area: "token",
    description:
      "over HTTP Basic any client_id and client_secret yield a token (form credentials are checked)",
  },
  "token-form-unchecked": {
    area: "token",
    description: "as form fields any client_id and client_secret yield a token (HTTP Basic is checked)",
  },
  "token-narrow-scope": {
    area: "token",
    description: 'the token response grants scope "openid" instead of profile and email',
  },
  "token-error-not-json": {
    area: "token",
    description: "token errors are text/plain without an RFC 6749 error code",
  },
  "token-repeated-params-accepted": {
    area: "token",
    description: "a token request repeating a form parameter is accepted (the first value wins)",
  },
  "token-empty-param-5xx": {
    area: "token",
    description: "a token request with a form parameter sent without a value gets 500",
  },
  "token-secret-case-insensitive": {
    area: "token",
    description: "the client secret is compared without regard to case (a case-insensitive collation)",
  },
  "token-5xx-missing-param": {
    area: "token",
    description:
      "a token request without grant_type, client_id or client_secret (none in a Basic header) gets 500",
  },
  "token-5xx-long-value": {
    area: "token",
    description:
      "a token request with a form value or Basic credentials longer than 1,000 characters gets 500",
  },
  "token-basic-5xx-unknown-param": {
    area: "token",
    description: "with HTTP Basic client authentication, a form parameter the server does not know gets 500",
  },
  "bearer-not-required": {
    area: "bearer",
    description: "API requests without an Authorization header are accepted",
  },
  "bearer-any-token": { area: "bearer", description: "any Bearer string is accepted as a token" },
  "bearer-signature-unchecked": {
    area: "bearer",
    description: "token claims are trusted without checking the signature (tampered and foreign tokens pass)",
  },
  "bearer-alg-none": {
    area: "bearer",
    description: "unsigned alg none tokens are accepted when their claims look right",
  },
  "bearer-any-scheme": {
    area: "bearer",
    description: "a valid token is accepted under any scheme (Token <t>, or no scheme at all)",
  },
  "bearer-no-www-authenticate": {
    area: "bearer",
    description: "401 responses carry no WWW-Authenticate header",
  },
  "bearer-5xx": { area: "bearer", description: "invalid tokens get 500 instead of 401" },
  "bearer-rejected-stored": {
    area: "bearer",
    description: "events of requests rejected with 401 are stored anyway (and readable by GET)",
  },
  "events-5xx": { area: "events", description: "every valid event gets 500" },
  "events-invalid-5xx": {
    area: "events",
    description: "invalid events and malformed JSON get 500 instead of 400",
  },
  "events-accept-invalid": { area: "events", description: "invalid events are accepted with 202" },
  "events-5xx-fraction": {
    area: "events",
    description: "a --fault-rate fraction of valid events gets 503 (deterministic, evenly spread)",
  },
  "events-500-one-in-seven": {
    area: "events",
    description: "one valid event in seven, drawn at random from --fault-seed, gets 500 (a flaky server)",
  },
  "events-any-content-type": {
    area: "events",
    description: "bodies are parsed as JSON whatever their Content-Type (text/plain included)",
  },
  "events-not-stored": {
    area: "events",
    description: "events are acknowledged with 202 but GET /events/{ref} answers 404",
  },
  "events-no-read-route": {
    area: "events",
    description: "there is no GET /events/{ref} route: it answers what any unrouted path does (404)",
  },
  "events-5xx-email-local-part": {
    area: "events",
    description: "a valid e-mail address whose local part holds + or a letter beyond ASCII gets 500",
  },
  "events-5xx-long-reference": {
    area: "events",
    description: "a transaction.reference longer than 64 characters gets 500 (a VARCHAR(64) column)",
  },
  "events-5xx-quote-reference": {
    area: "events",
    description: "a transaction.reference holding a single quote gets 500 (SQL built by concatenation)",
  },
  "events-5xx-emoji-system": {
    area: "events",
    description: "a system holding an emoji (a character beyond the BMP) gets 500 (a utf8mb3 column)",
  },
  "events-5xx-unknown-property": {
    area: "events",
    description: "an event holding a property the spec does not name gets 500",
  },
  "events-5xx-null-field": {
    area: "events",
    description: "a required field sent as JSON null gets 500",
  },
  "events-5xx-huge-integer": {
    area: "events",
    description: "a body holding an integer beyond 2^53 anywhere gets 500",
  },
  "events-5xx-deep-nesting": {
    area: "events",
    description: "a body nested deeper than 100 levels gets 500",
  },
  "events-5xx-long-email": {
    area: "events",
    description: "a customer.email longer than 100 characters gets 500 (a VARCHAR(100) column)",
  },
  "events-5xx-idn-email": {
    area: "events",
    description:
      "a customer.email whose domain holds a letter beyond ASCII gets 500 (its A-label conversion throws)",
  },
  "events-email-shape-unchecked": {
    area: "events",
    description: "customer.email is accepted whatever string it holds (no address check)",
  },
  "events-5xx-long-system-version": {
    area: "events",
    description: "a systemVersion longer than 50 characters gets 500 (a VARCHAR(50) column)",
  },
  "events-5xx-non-ascii-type": {
    area: "events",
    description: "a type holding a character beyond ASCII gets 500 (looked up in a Latin-1 table)",
  },
  "events-leap-every-fourth-year": {
    area: "events",
    description: "February 29 is accepted in every year divisible by 4, 2100 included (the naive leap rule)",
  },
  "events-channel-prefix-unchecked": {
    area: "events",
    description: 'a channel.id that does not start with "chl-" is accepted',
  },
  "events-array-body-accepted": {
    area: "events",
    description:
      "a body that is a JSON array of valid events is accepted and each stored (a batch the spec has not)",
  },
  "events-5xx-utf16-body": {
    area: "events",
    description: "a body in UTF-16 gets 500, whatever its Content-Type says",
  },
  "events-5xx-bearer-lowercase": {
    area: "events",
    description: 'an Authorization scheme spelled other than "Bearer" (bearer, BEARER) gets 500',
  },
  "events-strict-content-type": {
    area: "events",
    description: 'a Content-Type other than exactly "application/json" (another case, a charset) gets 415',
  },
  "events-5xx-escaped-surrogates": {
    area: "events",
    description: "a JSON string holding an escaped surrogate pair (\\ud83d\\ude00) gets 500",
  },
  "events-lenient-dates": {
    area: "events",
    description: "transaction.date without milliseconds, with an offset or date-only is accepted",
  },
  "events-numbers-as-strings": {
    area: "events",
    description: "a number is accepted where the spec says string (type, email, channel.id, reference…)",
  },
  "expiry-fixed": { area: "expiry", description: "token lifetime counts from issue, not from last use" },
  "expiry-never": { area: "expiry", description: "idle tokens never expire" },
  "expiry-early": { area: "expiry", description: "idle tokens expire after half of expires_in" },
  "expiry-no-renewal": {
    area: "expiry",
    description: "once one of a client's tokens has expired, the tokens it gets afterwards are refused too",
  },
  slow: { area: "transport", description: "every response is delayed by 30 s" },
  reset: { area: "transport", description: "every connection is reset without an answer" },
  "non-json": { area: "transport", description: "the token endpoint answers 200 with an HTML page" },
} as const satisfies Record<string, { area: FaultArea; description: string }>;

export type FaultName = keyof typeof CATALOGUE;

export interface FaultInfo {
  readonly name: FaultName;
  readonly area: FaultArea;
  readonly description: string;
}

/** The fault catalogue, in a stable order (grouped by area). */
export const FAULTS: readonly FaultInfo[] = Object.freeze(
  (Object.keys(CATALOGUE) as FaultName[]).map((name) => Object.freeze({ name, ...CATALOGUE[name] })),
);

export function isFaultName(value: string): value is FaultName {
  return Object.hasOwn(CATALOGUE, value);
}
