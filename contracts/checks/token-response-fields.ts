import type { QuoteValue } from "../../domain/index.ts";
import { lifetimeProblem, SPEC_EXAMPLE_FIELDS, tokenResponseSchema, valueKind } from "../../domain/index.ts";

/** Whether a field of the body fits its type in the token response schema. */
function fits(field: keyof typeof tokenResponseSchema.shape, value: unknown): boolean {
  return tokenResponseSchema.shape[field].safeParse(value).success;
}

/**
 * Each problem of the fields the spec's rules need (access_token, token_type Bearer in any case, a positive whole
 * expires_in), in words; empty when they hold.
 */
export function ruleFieldProblems(body: Readonly<Record<string, unknown>>, quote: QuoteValue): string[] {
  const problems: string[] = [];
  const { access_token: token, token_type: type } = body;
  if (!("access_token" in body)) problems.push("access_token is absent");
  else if (!fits("access_token", token))
    problems.push(
      `access_token is ${typeof token === "string" ? "an empty string" : valueKind(token, quote)}, not a token`,
    );
  if (!("token_type" in body)) problems.push("token_type (Bearer) is absent");
  else if (!fits("token_type", type))
    problems.push(
      `token_type is ${typeof type === "string" ? `"${quote(type)}"` : valueKind(type, quote)}, not Bearer (any case)`,
    );
  const lifetime = lifetimeProblem(body, quote);
  if (lifetime !== undefined) problems.push(lifetime);
  return problems;
}

/** The spec's example fields (Keycloak's) that are absent, and those present with the wrong type, in words. */
export function exampleFieldProblems(
  body: Readonly<Record<string, unknown>>,
  quote: QuoteValue,
): { readonly absent: string[]; readonly wrong: string[] } {
  const absent = SPEC_EXAMPLE_FIELDS.filter((field) => !(field in body));
  const wrong = SPEC_EXAMPLE_FIELDS.filter((field) => field in body && !fits(field, body[field])).map(
    (field) => `${field} is ${valueKind(body[field], quote)}, not a whole number ≥ 0`,
  );
  return { absent, wrong };
}
