import fc from "fast-check";

/**
 * Token requests as clients really write them (RFC 6749 §3.2, §4.4.2, Appendix B): the same valid form with its
 * parameters in another order, unknown ones added, one sent empty or twice, and other legitimate encodings of the
 * same bytes. What each must get follows from the RFC, not from any server.
 */

/** A parameter of the target's valid token request, as the harness sends it. */
export type FormField = readonly [name: string, value: string];

/** What a token request must get: a token (200), or a refusal (RFC 6749 §5.2: 400 or 401). */
export type TokenFormExpectation = "token" | "refused";

/** The request a plan makes of the target's form. */
export interface TokenFormInput {
  readonly what: string;
  readonly body: string;
  readonly contentType: string;
  readonly expect: TokenFormExpectation;
  /** The Authorization header to send instead of the client authentication's own; undefined keeps that. */
  readonly authorization?: string;
  /** Without any Authorization header (HTTP Basic credentials left out). */
  readonly withoutAuthorization?: boolean;
  /** Values made from a secret that the request carries (a case-swapped secret …): hidden like the secret itself. */
  readonly hide?: readonly string[];
  /** Client id and secret pairs whose HTTP Basic encodings the request carries, hidden too. */
  readonly hideBasic?: ReadonlyArray<readonly [clientId: string, clientSecret: string]>;
}

/** Parameters the grant requires: sent empty they count as omitted (RFC 6749 §3.1), so the request is refused. */
export const REQUIRED = ["grant_type", "client_id", "client_secret"] as const;
/** Parameters a request may leave out: sent empty they count as omitted, so a token is still issued. */
export const OPTIONAL = ["audience", "scope"] as const;
/** Parameter names OAuth gives a meaning to: never used as "unknown". */
const KNOWN = new Set([
  ...REQUIRED,
  ...OPTIONAL,
  "resource",
  "code",
  "redirect_uri",
  "refresh_token",
  "username",
  "password",
  "code_verifier",
  "client_assertion",
  "client_assertion_type",
  "assertion",
  "subject_token",
  "subject_token_type",
  "actor_token",
  "requested_token_type",
  "state",
  "nonce",
  "response_type",
]);

export type Change =
  | { readonly kind: "none" }
  | { readonly kind: "unknown"; readonly params: readonly FormField[] }
  | { readonly kind: "empty"; readonly name: string }
  | { readonly kind: "repeat"; readonly name: string; readonly other: string | undefined };

export interface Encoding {
  /** Percent-encode `_`, `-` and `.` in names and plain values, as %5F, %2D, %2E (the same bytes, RFC 3986 §2.3). */
  readonly percentUnreserved: boolean;
  /** Write percent escapes in lower case (%5f), which RFC 3986 §2.1 makes equivalent. */
  readonly lowercaseHex: boolean;
  /** Write a space as %20 rather than + (both decode to a space). */
  readonly percentSpace: boolean;
  /** Content-Type with `charset=UTF-8`, or in mixed case: the same media type (RFC 9110 §8.3.1). */
  readonly contentType: "plain" | "charset" | "mixed-case";
}

/** A way to change a valid token request; the target's own form decides what it finally sends. */
export interface TokenFormPlan {
  /** Sort keys for the fields: the parameters' order, which carries no meaning. */
  readonly order: readonly number[];
  readonly change: Change;
  readonly encoding: Encoding;
}

export const unknownName = fc
  .oneof(
    fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_"), minLength: 1, maxLength: 16 }),
    fc.constantFrom("x_client_version", "ключ", "a b", "ui_locales", "foo[]", "%"),
  )
  .filter((name) => !KNOWN.has(name));

export const anyValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom("", "true", "😀", "a&b=c", "%00", "100%"),
);

const change: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: fc.constant<Change>({ kind: "none" }), weight: 1 },
  {
    arbitrary: fc
      .uniqueArray(fc.tuple(unknownName, anyValue), {
        minLength: 1,
        maxLength: 3,
        selector: ([name]) => name,
      })
      .map((params): Change => ({ kind: "unknown", params })),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom(...REQUIRED, ...OPTIONAL).map((name): Change => ({ kind: "empty", name })),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...REQUIRED, ...OPTIONAL), fc.option(fc.string({ minLength: 1, maxLength: 12 })))
      .map(([name, other]): Change => ({ kind: "repeat", name, other: other ?? undefined })),
    weight: 2,
  },
);

export const encodingArbitrary: fc.Arbitrary<Encoding> = fc.record({
  percentUnreserved: fc.boolean(),
  lowercaseHex: fc.boolean(),
  percentSpace: fc.boolean(),
  contentType: fc.constantFrom("plain", "charset", "mixed-case"),
});

export const tokenFormPlanArbitrary: fc.Arbitrary<TokenFormPlan> = fc.record({
  order: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  change,
  encoding: encodingArbitrary,
});

export const FORM_TYPE = "application/x-www-form-urlencoded";
const CONTENT_TYPES: Record<Encoding["contentType"], string> = {
  plain: FORM_TYPE,
  charset: `${FORM_TYPE}; charset=UTF-8`,
  "mixed-case": "Application/X-WWW-Form-URLEncoded",
};

/** application/x-www-form-urlencoded as URLSearchParams writes it, then (unless a secret) re-encoded as the plan says. */
function encode(text: string, plan: Encoding, secret: boolean): string {
  let out = new URLSearchParams([["", text]]).toString().slice(1);
  if (secret) return out;
  if (plan.percentSpace) out = out.replaceAll("+", "%20");
  if (plan.percentUnreserved)
    out = out.replace(/[_.-]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  if (plan.lowercaseHex) out = out.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  return out;
}

function describeEncoding(plan: Encoding): string[] {
  return [
    plan.percentUnreserved ? "`_`, `-`, `.` percent-encoded" : "",
    plan.lowercaseHex ? "lower-case percent escapes" : "",
    plan.percentSpace ? "spaces as %20" : "",
    plan.contentType === "plain" ? "" : `Content-Type ${CONTENT_TYPES[plan.contentType]}`,
  ].filter(Boolean);
}

/**
 * The request `plan` makes of the target's valid form `fields`. `secrets` names the fields whose values are
 * never re-encoded (they stay as URLSearchParams writes them, the form every redaction knows). A change naming a
 * parameter the form does not carry (client_id under HTTP Basic, scope when none is configured) is left out.
 */
export function renderTokenForm(
  plan: TokenFormPlan,
  fields: readonly FormField[],
  secrets: ReadonlySet<string> = new Set(["client_secret"]),
): TokenFormInput {
  const ordered = fields
    .map((field, index) => ({ field, key: plan.order[index % plan.order.length] ?? 0, index }))
    .sort((a, b) => a.key - b.key || a.index - b.index)
    .map(({ field }) => field);
  const present = new Set(fields.map(([name]) => name));
  let sent: FormField[] = [...ordered];
  let what: string[] = [];
  let expect: TokenFormExpectation = "token";
  const { change: edit } = plan;
  if (edit.kind === "unknown") {
    sent = [...sent, ...edit.params];
    what = [
      `unknown parameters ${edit.params.map(([name]) => JSON.stringify(name)).join(", ")} (to be ignored)`,
    ];
  } else if (edit.kind === "empty" && present.has(edit.name)) {
    sent = sent.map(([name, value]): FormField => [name, name === edit.name ? "" : value]);
    const required = (REQUIRED as readonly string[]).includes(edit.name);
    expect = required ? "refused" : "token";
    what = [`${edit.name} sent empty (${required ? "a required parameter omitted" : "as if omitted"})`];
  } else if (edit.kind === "repeat" && present.has(edit.name)) {
    const value = fields.find(([name]) => name === edit.name)?.[1] ?? "";
    sent = [...sent, [edit.name, edit.other ?? value]];
    expect = "refused";
    what = [
      `${edit.name} sent twice${edit.other === undefined ? ", with the same value" : ""} (parameters must not repeat)`,
    ];
  }
  const body = sent
    .map(
      ([name, value]) =>
        `${encode(name, plan.encoding, false)}=${encode(value, plan.encoding, secrets.has(name))}`,
    )
    .join("&");
  const encodings = describeEncoding(plan.encoding);
  return {
    what: [...(what.length === 0 ? ["the valid form"] : what), ...encodings].join("; "),
    body,
    contentType: CONTENT_TYPES[plan.encoding.contentType],
    expect,
  };
}
