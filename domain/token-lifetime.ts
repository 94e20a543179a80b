// The one rule every part of the harness judges a token's lifetime by: the contract, the preflight, `token`, and
// each k6 VU. No zod here, so the k6 scenarios can bundle it.
import type { QuoteValue } from "./value-kind.ts";
import { valueKind } from "./value-kind.ts";

/**
 * Spec: "expires_in | integer, seconds"; a lifetime is positive. A numeric string, a fraction or zero is no lifetime:
 * a client that guessed what such a target meant would hide the target's fault.
 */
export function isLifetime(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** Why a token response's expires_in is no lifetime, in words with the value quoted; undefined when it is one. */
export function lifetimeProblem(
  body: Readonly<Record<string, unknown>>,
  quote: QuoteValue,
): string | undefined {
  if (!("expires_in" in body)) return "expires_in (the lifetime in seconds) is absent";
  const lifetime = body.expires_in;
  if (isLifetime(lifetime)) return undefined;
  if (typeof lifetime !== "number")
    return `expires_in is ${valueKind(lifetime, quote)}, not a number of seconds`;
  return `expires_in is ${quote(lifetime)}, not a positive whole number of seconds`;
}
