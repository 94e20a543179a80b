import { type ServerResponse, STATUS_CODES } from "node:http";
import { reply } from "./http-reply.ts";

/** The realm named in every WWW-Authenticate challenge of the sandbox. */
export const REALM = "event-api-sandbox";

/** An RFC 6749 §5.2 error of the token endpoint (plus RFC 8707's invalid_target). */
export interface OAuthError {
  readonly status: 400 | 401 | 413;
  readonly error:
    | "invalid_request"
    | "invalid_client"
    | "invalid_grant"
    | "unsupported_grant_type"
    | "invalid_target";
  /** Plain English without the error code, so the `token-error-not-json` fault can show it on its own. */
  readonly description: string;
  /** RFC 6749 §5.2: a 401 after HTTP Basic authentication must carry a Basic challenge. */
  readonly basicChallenge?: boolean;
}

export function oauthError(
  status: OAuthError["status"],
  error: OAuthError["error"],
  description: string,
  basicChallenge = false,
): OAuthError {
  return { status, error, description, basicChallenge };
}

/** RFC 6749 §5.1 asks for these on token responses; errors get them too so no proxy caches a failure. */
export const NO_STORE_HEADERS = Object.freeze({ "cache-control": "no-store", pragma: "no-cache" });

export function replyOAuthError(res: ServerResponse, failure: OAuthError, plainText: boolean): void {
  const headers: Record<string, string> = { ...NO_STORE_HEADERS };
  if (failure.basicChallenge) headers["www-authenticate"] = `Basic realm="${REALM}", charset="UTF-8"`;
  if (plainText) {
    const text = `${STATUS_CODES[failure.status]}: ${failure.description}\n`;
    reply(res, failure.status, "text/plain; charset=utf-8", text, headers);
    return;
  }
  const body = JSON.stringify({ error: failure.error, error_description: failure.description });
  reply(res, failure.status, "application/json", body, headers);
}
