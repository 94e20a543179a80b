import { UndecidableError } from "../../core/index.ts";
import type { HttpResponse } from "../probe/http-request.ts";

/** A refusal as a rule names it: the statuses that count, and the clause that says so. */
export interface Refusal {
  readonly statuses: readonly number[];
  readonly rule: string;
}

/** RFC 6749 §5.2: a failed client authentication is invalid_client, with 401 (or 400). */
export const INVALID_CLIENT: Refusal = { statuses: [400, 401], rule: "RFC 6749 §5.2 invalid_client" };
/** RFC 6749 §5.2: a grant type the client may not use is unsupported_grant_type or unauthorized_client, 400. */
export const REFUSED_GRANT: Refusal = {
  statuses: [400],
  rule: "RFC 6749 §5.2 unsupported_grant_type",
};
/** RFC 6750 §3.1: a resource server refuses a token with 401 (invalid_token) or 403 (insufficient_scope). */
export const REFUSED_TOKEN: Refusal = { statuses: [401, 403], rule: "RFC 6750 §3.1" };
/** RFC 6750 §3.1: a request without a usable bearer token is refused with 400, 401 or 403. */
export const BEARER_REFUSAL: Refusal = { statuses: [400, 401, 403], rule: "RFC 6750 §3.1" };
/** RFC 9110 §15.5: a request the server will not process for its content is 400, 415 or 422. */
export const REJECTED_CONTENT: Refusal = { statuses: [400, 415, 422], rule: "RFC 9110 §15.5" };

/** "400 or 401 (RFC 6749 §5.2 invalid_client)", for messages. */
export function describeRefusal(refusal: Refusal): string {
  const statuses = refusal.statuses.join(", ").replace(/, (\d+)$/, " or $1");
  return `${statuses} (${refusal.rule})`;
}

/**
 * Whether an answer is the refusal the rule names. A 404, 405, 3xx or 2xx is not one, however it reads; a 429
 * says nothing about the rule, so the check cannot decide.
 */
export function isRefusal(response: HttpResponse, refusal: Refusal): boolean {
  if (response.status === 429) {
    throw new UndecidableError(`the target answered 429 (too many requests) instead of judging the request`);
  }
  return refusal.statuses.includes(response.status);
}
