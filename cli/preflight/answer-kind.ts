import { isLifetime } from "../../domain/index.ts";
import { parseTokenResponse } from "../../load/index.ts";
import { jsonObjectOf } from "../../transport/index.ts";
import type { TokenAttempt } from "./token-attempt.ts";

export type ParsedToken = NonNullable<ReturnType<typeof parseTokenResponse>>;

/** What a token endpoint's answer says about the settings, before any check judges the API. */
export type AnswerKind =
  | { readonly kind: "token"; readonly token: ParsedToken }
  /** A 200 with an access token whose expires_in is no lifetime by the harness's one rule: the target's fault. */
  | { readonly kind: "bad-lifetime"; readonly body: Readonly<Record<string, unknown>> }
  /** 401, or an RFC 6749 invalid_client: the credentials as sent were refused. */
  | { readonly kind: "refused" }
  /** 404/405, an HTML page, or a success that is not JSON: this URL is no token endpoint. */
  | { readonly kind: "not-token-endpoint" }
  /** Anything else (a 400 of another kind, a 5xx, a token response missing a field): for the checks to judge. */
  | { readonly kind: "other" };

function errorCode(text: string): unknown {
  try {
    return (JSON.parse(text) as { error?: unknown } | null)?.error;
  } catch {
    return undefined;
  }
}

/** The body of a 200 that carries an access token but no usable lifetime; undefined for any other answer. */
function withoutLifetime(status: number, text: string): Readonly<Record<string, unknown>> | undefined {
  if (status !== 200) return undefined;
  const record = jsonObjectOf(text);
  if (record === undefined) return undefined;
  const token = record.access_token;
  return typeof token === "string" && token !== "" && !isLifetime(record.expires_in) ? record : undefined;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function answerKind(answer: Extract<TokenAttempt, { kind: "answer" }>): AnswerKind {
  const { status, contentType, text } = answer;
  const token = parseTokenResponse(status, text);
  if (token !== undefined) return { kind: "token", token };
  const body = withoutLifetime(status, text);
  if (body !== undefined) return { kind: "bad-lifetime", body };
  if (status === 401 || errorCode(text) === "invalid_client") return { kind: "refused" };
  const html = /html/i.test(contentType) || /^\s*</.test(text);
  if (status === 404 || status === 405 || html || (status >= 200 && status < 300 && !isJson(text))) {
    return { kind: "not-token-endpoint" };
  }
  return { kind: "other" };
}
