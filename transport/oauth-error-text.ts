import { jsonObjectOf } from "./json-object.ts";
import type { Redactor } from "./redactor.ts";

/** An error_description is quoted whole up to this length; past it, its end is (the specific reason is last). */
export const DESCRIPTION_CHARS = 300;
/** An error code is a short word; a longer one is cut here. */
const CODE_CHARS = 80;
/** Bodies longer than this are no token error response: they are quoted as text, never parsed. */
const MAX_ERROR_BODY_CHARS = 16_384;

/** An RFC 6749 §5.2 error answer: its `error` code and, when it gave one, its error_description. */
export interface OAuthError {
  readonly error: string;
  readonly description: string | undefined;
}

/** The OAuth error a response body carries (`{"error": "…", "error_description": "…"}`), else undefined. */
export function oauthErrorOf(text: string): OAuthError | undefined {
  if (text.length > MAX_ERROR_BODY_CHARS) return undefined;
  const body = jsonObjectOf(text);
  if (body === undefined) return undefined;
  const { error, error_description: description } = body;
  if (typeof error !== "string" || error === "") return undefined;
  return {
    error,
    description: typeof description === "string" && description !== "" ? description : undefined,
  };
}

/**
 * `invalid_request: "… Requested audience 'x' has not been whitelisted."`: the error code and the description,
 * whole or, past DESCRIPTION_CHARS, its end, since servers put the generic RFC sentence first and their specific
 * reason last. Both are made inert and redacted before the cut, so the cut never splits a hidden secret.
 */
export function describeOAuthError(oauthError: OAuthError, redactor: Pick<Redactor, "untrusted">): string {
  const code = [...redactor.untrusted(oauthError.error)];
  const error = code.length <= CODE_CHARS ? code.join("") : `${code.slice(0, CODE_CHARS - 1).join("")}…`;
  if (oauthError.description === undefined) return error;
  const description = [...redactor.untrusted(oauthError.description.replace(/\s+/g, " ").trim())];
  const quoted =
    description.length <= DESCRIPTION_CHARS
      ? description.join("")
      : `…${description.slice(description.length - (DESCRIPTION_CHARS - 1)).join("")}`;
  return `${error}: "${quoted}"`;
}
