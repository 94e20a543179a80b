import fc from "fast-check";
import { basicCredentials } from "../transport/index.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { Change, Encoding, FormField, TokenFormInput, TokenFormPlan } from "./token-form-mutations.ts";
import {
  anyValue,
  encodingArbitrary,
  FORM_TYPE,
  OPTIONAL,
  REQUIRED,
  renderTokenForm,
  unknownName,
} from "./token-form-mutations.ts";

/** How the client authenticates in the requests of a class (RFC 6749 §2.3.1; OpenID Connect's names). */
export type TokenClientAuth = "client_secret_post" | "client_secret_basic";

/** The target's own valid token request, as one client authentication sends it. */
export interface TokenRequestShape {
  readonly via: TokenClientAuth;
  /** The form's fields (under Basic without client_id and client_secret). */
  readonly fields: readonly FormField[];
  readonly clientId: string;
  readonly clientSecret: string;
  /** Form fields whose values are secret: never re-encoded, so redaction knows them as they are. */
  readonly secrets: ReadonlySet<string>;
}

const PLAIN: Encoding = {
  percentUnreserved: false,
  lowercaseHex: false,
  percentSpace: false,
  contentType: "plain",
};
const IN_ORDER: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7];
const plan = (
  change: Change,
  encoding: Encoding = PLAIN,
  order: readonly number[] = IN_ORDER,
): TokenFormPlan => ({
  order,
  change,
  encoding,
});
const ORDER = fc.array(fc.nat(), { minLength: 8, maxLength: 8 });

function planClass(
  shape: TokenRequestShape,
  name: string,
  field: string,
  expect: InputExpectation,
  description: string,
  cover: readonly TokenFormPlan[],
  changes: fc.Arbitrary<Change>,
): InputClass<TokenFormInput> {
  const render = (p: TokenFormPlan) => renderTokenForm(p, shape.fields, shape.secrets);
  return {
    field,
    name,
    via: shape.via,
    description,
    expect,
    cover: cover.map(render),
    arbitrary: fc.record({ order: ORDER, change: changes, encoding: encodingArbitrary }).map(render),
  };
}

/**
 * The token form as RFC 6749 shapes it, under one client authentication: the valid form reordered and re-encoded,
 * unknown parameters (ignored: a token), an optional one empty or left out (as omitted: a token), a required one
 * empty or any one repeated (refused), a parameter name in another case (answered: RFC 6749 gives names in lower
 * case and says nothing of others), and under HTTP Basic the scheme in another case (a token, RFC 9110 §11.1).
 */
export function tokenFormClasses(
  shape: TokenRequestShape,
  basicHeader?: string,
): InputClass<TokenFormInput>[] {
  const present = shape.fields.map(([name]) => name);
  const required = REQUIRED.filter((name) => present.includes(name));
  const optional = OPTIONAL.filter((name) => present.includes(name));
  const classes: InputClass<TokenFormInput>[] = [
    planClass(
      shape,
      "reordered-and-re-encoded",
      "form",
      "accepted",
      "the valid form in another order, with %5F for _, lower-case escapes, %20 for a space (RFC 3986 §2)",
      [
        plan({ kind: "none" }, PLAIN, [7, 6, 5, 4, 3, 2, 1, 0]),
        plan({ kind: "none" }, { ...PLAIN, percentUnreserved: true }),
        plan({ kind: "none" }, { ...PLAIN, percentUnreserved: true, lowercaseHex: true, percentSpace: true }),
      ],
      fc.constant<Change>({ kind: "none" }),
    ),
    planClass(
      shape,
      "unknown-parameters",
      "form",
      "accepted",
      "parameters the server does not know, to be ignored (RFC 6749 §3.2)",
      [
        plan({ kind: "unknown", params: [["x_client_version", "1.4.2"]] }),
        plan({
          kind: "unknown",
          params: [
            ["ui_locales", "de"],
            ["ключ", "значение"],
            ["a b", "100%"],
          ],
        }),
      ],
      fc
        .uniqueArray(fc.tuple(unknownName, anyValue), {
          minLength: 1,
          maxLength: 3,
          selector: ([name]) => name,
        })
        .map((params): Change => ({ kind: "unknown", params })),
    ),
  ];
  if (optional.length > 0)
    classes.push(
      planClass(
        shape,
        "optional-empty",
        "form",
        "accepted",
        "an optional parameter sent without a value: as if omitted (RFC 6749 §3.1)",
        optional.map((name) => plan({ kind: "empty", name })),
        fc.constantFrom(...optional).map((name): Change => ({ kind: "empty", name })),
      ),
    );
  if (required.length > 0)
    classes.push(
      planClass(
        shape,
        "required-empty",
        "form",
        "refused",
        "a required parameter sent without a value: omitted, so refused (RFC 6749 §3.1, §5.2)",
        required.map((name) => plan({ kind: "empty", name })),
        fc.constantFrom(...required).map((name): Change => ({ kind: "empty", name })),
      ),
    );
  classes.push(
    planClass(
      shape,
      "repeated",
      "form",
      "refused",
      "a parameter sent twice, with the same value or another (RFC 6749 §3.2: must not repeat)",
      present.flatMap((name) => [
        plan({ kind: "repeat", name, other: undefined }),
        plan({ kind: "repeat", name, other: "other" }),
      ]),
      fc
        .tuple(fc.constantFrom(...present), fc.option(fc.string({ minLength: 1, maxLength: 12 })))
        .map(([name, other]): Change => ({ kind: "repeat", name, other: other ?? undefined })),
    ),
  );
  classes.push(
    rawClass(
      shape,
      "form",
      "name-case",
      "answered",
      "a parameter's name in another letter case (GRANT_TYPE for grant_type): RFC 6749 names them in lower case only",
      present
        .filter((name) => !shape.secrets.has(name))
        .map((name) => {
          const upper = name.toUpperCase();
          return form(
            shape.fields.map(([key, value]): FormField => [key === name ? upper : key, value]),
            `the parameter ${name} named ${upper}`,
          );
        }),
    ),
  );
  if (shape.via === "client_secret_basic" && basicHeader !== undefined) {
    const credentials = basicHeader.replace(/^Basic +/i, "");
    classes.push(
      rawClass(
        shape,
        "Authorization",
        "basic-scheme-case",
        "accepted",
        "the Basic scheme in another letter case, and more spaces before the credentials (RFC 9110 §11.1, §11.4)",
        ["basic ", "BASIC ", "Basic   "].map((scheme) => ({
          ...form(
            shape.fields,
            `Authorization: ${JSON.stringify(scheme.trim())} scheme${scheme.endsWith("   ") ? " with three spaces" : ""}`,
          ),
          authorization: `${scheme}${credentials}`,
        })),
      ),
    );
  }
  return classes;
}

/** The form as written, with its media type. */
function form(fields: readonly FormField[], what: string, contentType = FORM_TYPE): TokenFormInput {
  return {
    what,
    body: new URLSearchParams(fields.map(([k, v]): [string, string] => [k, v])).toString(),
    contentType,
    expect: "token",
  };
}

/** A class of fixed requests: its cover is all of them, and the search draws among them again. */
function rawClass(
  shape: TokenRequestShape,
  field: string,
  name: string,
  expect: InputExpectation,
  description: string,
  inputs: readonly TokenFormInput[],
): InputClass<TokenFormInput> {
  return {
    field,
    name,
    via: shape.via,
    description,
    expect,
    cover: inputs,
    arbitrary: fc.constantFrom(...inputs),
  };
}

/** Each letter's case swapped; the same text when it holds no letter that has a case. */
export function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
}

/** Lengths past common buffers and columns: 256, 1 Ki, 8 Ki. */
const LONG = [8_192, 1_024, 256];

/**
 * The spec's token fields under one client authentication: each required one left out, in another letter case and
 * made very long, the client secret cut short, and the spec's media type in its other spellings. A request with
 * the grant type or the credentials changed is refused (the spec: grant_type "Must be client_credentials";
 * Authentication rule 1: the server checks the credentials); a client id in another case and the audience are
 * answered either way (client ids that are GUIDs compare without case at some servers; production ignores the
 * audience); the media type in another spelling gets a token (RFC 9110 §8.3.1: the same media type).
 */
export function tokenFieldClasses(shape: TokenRequestShape): InputClass<TokenFormInput>[] {
  const basic = shape.via === "client_secret_basic";
  const withForm = (fields: readonly FormField[], what: string): TokenFormInput => form(fields, what);
  const replace = (name: string, value: string | undefined): FormField[] =>
    value === undefined
      ? shape.fields.filter(([key]) => key !== name)
      : shape.fields.map(([key, v]): FormField => [key, key === name ? value : v]);
  /** The request with the credentials changed: in the header under Basic, in the form otherwise. */
  const credentials = (
    clientId: string | undefined,
    clientSecret: string | undefined,
    what: string,
  ): TokenFormInput => {
    const hide = clientSecret !== undefined && clientSecret !== shape.clientSecret ? [clientSecret] : [];
    if (basic) {
      const pair: [string, string] = [clientId ?? "", clientSecret ?? ""];
      const header =
        clientId === undefined && clientSecret === undefined
          ? undefined
          : `Basic ${basicCredentials(...pair)}`;
      return {
        ...withForm(shape.fields, what),
        ...(header === undefined ? { withoutAuthorization: true } : { authorization: header }),
        hide,
        hideBasic: [pair],
      };
    }
    const fields = replace("client_secret", clientSecret);
    const withId =
      clientId === undefined
        ? fields.filter(([key]) => key !== "client_id")
        : fields.map(([key, v]): FormField => [key, key === "client_id" ? clientId : v]);
    return { ...withForm(withId, what), hide };
  };
  const { clientId, clientSecret } = shape;
  const classes: InputClass<TokenFormInput>[] = [];
  const add = (
    field: string,
    name: string,
    expect: InputExpectation,
    description: string,
    inputs: readonly TokenFormInput[],
  ) => {
    if (inputs.length > 0) classes.push(rawClass(shape, field, name, expect, description, inputs));
  };
  const grant = shape.fields.find(([key]) => key === "grant_type")?.[1] ?? "client_credentials";
  add("grant_type", "missing", "refused", "grant_type left out (RFC 6749 §4.4.2: required)", [
    withForm(replace("grant_type", undefined), "grant_type left out"),
  ]);
  add(
    "grant_type",
    "case-varied",
    "refused",
    'grant_type in another letter case (the spec: "Must be client_credentials")',
    [grant.toUpperCase(), "Client_Credentials", swapCase(grant)]
      .filter((value, index, all) => value !== grant && all.indexOf(value) === index)
      .map((value) => withForm(replace("grant_type", value), `grant_type=${value}`)),
  );
  add(
    "grant_type",
    "very-long",
    "refused",
    "grant_type client_credentials followed by 256 to 8,192 characters",
    LONG.map((length) =>
      withForm(
        replace("grant_type", `${grant}${"x".repeat(length)}`),
        `grant_type of ${grant.length + length} characters`,
      ),
    ),
  );
  add("client_secret", "missing", "refused", "the client secret left out", [
    credentials(clientId, undefined, "the client secret left out"),
  ]);
  add(
    "client_secret",
    "case-varied",
    "refused",
    "the client secret with each letter's case swapped, and all in capitals: another secret",
    [swapCase(clientSecret), clientSecret.toUpperCase(), clientSecret.toLowerCase()]
      .filter((value, index, all) => value !== clientSecret && all.indexOf(value) === index)
      .map((value, index) =>
        credentials(
          clientId,
          value,
          `the client secret ${["with its letters' case swapped", "in capitals", "in lower case"][index] ?? "in another case"}`,
        ),
      ),
  );
  add(
    "client_secret",
    "very-long",
    "refused",
    "the client secret followed by 256 to 8,192 more characters: another secret",
    LONG.map((length) =>
      credentials(
        clientId,
        `${clientSecret}${"s".repeat(length)}`,
        `the client secret followed by ${length} characters`,
      ),
    ),
  );
  add(
    "client_secret",
    "truncated",
    "refused",
    "the client secret without its last character, and without its first",
    clientSecret.length > 1
      ? [
          credentials(clientId, clientSecret.slice(0, -1), "the client secret without its last character"),
          credentials(clientId, clientSecret.slice(1), "the client secret without its first character"),
        ]
      : [],
  );
  add("client_id", "missing", "refused", "the client id left out", [
    basic
      ? {
          ...credentials(clientId, clientSecret, "the client id left out"),
          authorization: `Basic ${basicCredentials("", clientSecret)}`,
          hideBasic: [["", clientSecret]],
        }
      : credentials(undefined, clientSecret, "the client id left out"),
  ]);
  add(
    "client_id",
    "very-long",
    "refused",
    "the client id followed by 256 to 8,192 characters: a client no server knows",
    LONG.map((length) =>
      credentials(
        `${clientId}${"i".repeat(length)}`,
        clientSecret,
        `the client id followed by ${length} characters`,
      ),
    ),
  );
  add(
    "client_id",
    "case-varied",
    "answered",
    "the client id with each letter's case swapped (some servers compare ids without case)",
    swapCase(clientId) === clientId
      ? []
      : [credentials(swapCase(clientId), clientSecret, "the client id with its letters' case swapped")],
  );
  const audience = shape.fields.find(([key]) => key === "audience")?.[1];
  if (audience !== undefined) {
    add(
      "audience",
      "case-varied",
      "answered",
      "the audience in capitals (a URL's scheme and host compare without case)",
      [withForm(replace("audience", audience.toUpperCase()), "the audience in capitals")],
    );
    add("audience", "very-long", "answered", "the audience followed by a path of 8,192 characters", [
      withForm(
        replace("audience", `${audience}/${"a".repeat(8_192)}`),
        "the audience followed by a path of 8,192 characters",
      ),
    ]);
  }
  add(
    "Content-Type",
    "media-type-forms",
    "accepted",
    "application/x-www-form-urlencoded in other letter case, with charset=utf-8, whitespace around ; (RFC 9110 §8.3.1)",
    [
      "Application/X-WWW-Form-URLEncoded",
      "application/x-www-form-urlencoded; charset=UTF-8",
      "application/x-www-form-urlencoded ; charset=utf-8",
      'application/x-www-form-urlencoded;charset="utf-8"',
    ].map((type) => ({ ...form(shape.fields, `the valid form sent as ${JSON.stringify(type)}`, type) })),
  );
  return classes;
}
