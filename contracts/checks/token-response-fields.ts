import { SPEC_EXAMPLE_FIELDS, tokenResponseSchema } from "../../domain/index.ts";

/** Makes a value the target sent safe to show (the probe's quote: redacted and inert). */
type Quote = (value: unknown) => string;

/** What a value is, in words, for a message: `a string ("300")`, `null`, `an object`. */
function kindOf(value: unknown, quote: Quote): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string ("${quote(value)}")`;
  if (typeof value === "object") return "an object";
  return `${typeof value === "number" ? "the number" : `a ${typeof value}`} ${quote(value)}`;
}

/** Whether a field of the body fits its type in the token response schema. */
function fits(field: keyof typeof tokenResponseSchema.shape, value: unknown): boolean {
  return tokenResponseSchema.shape[field].safeParse(value).success;
}

/**
 * Each problem of the fields the spec's rules need (access_token, token_type Bearer in any case, a positive whole
 * expires_in), in words; empty when they hold.
 */
export function ruleFieldProblems(body: Readonly<Record<string, unknown>>, quote: Quote): string[] {
  const problems: string[] = [];
  const { access_token: token, token_type: type, expires_in: lifetime } = body;
  if (!("access_token" in body)) problems.push("access_token is absent");
  else if (!fits("access_token", token))
    problems.push(
      `access_token is ${typeof token === "string" ? "an empty string" : kindOf(token, quote)}, not a token`,
    );
  if (!("token_type" in body)) problems.push("token_type (Bearer) is absent");
  else if (!fits("token_type", type))
    problems.push(
      `token_type is ${typeof type === "string" ? `"${quote(type)}"` : kindOf(type, quote)}, not Bearer (any case)`,
    );
  if (!("expires_in" in body)) problems.push("expires_in (the lifetime in seconds) is absent");
  else if (typeof lifetime !== "number")
    problems.push(`expires_in is ${kindOf(lifetime, quote)}, not a number of seconds`);
  else if (!fits("expires_in", lifetime))
    problems.push(`expires_in is ${quote(lifetime)}, not a positive whole number of seconds`);
  return problems;
}

/** The spec's example fields (Keycloak's) that are absent, and those present with the wrong type, in words. */
export function exampleFieldProblems(
  body: Readonly<Record<string, unknown>>,
  quote: Quote,
): { readonly absent: string[]; readonly wrong: string[] } {
  const absent = SPEC_EXAMPLE_FIELDS.filter((field) => !(field in body));
  const wrong = SPEC_EXAMPLE_FIELDS.filter((field) => field in body && !fits(field, body[field])).map(
    (field) => `${field} is ${kindOf(body[field], quote)}, not a whole number ≥ 0`,
  );
  return { absent, wrong };
}
