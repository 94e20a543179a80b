import type { Redactor } from "../../transport/index.ts";
import { describeOAuthError, oauthErrorOf } from "../../transport/index.ts";
import type { HttpResponse } from "../probe/http-request.ts";
import { ownCopy } from "../probe/own-copy.ts";

const MAX_SNIPPET = 160;

/**
 * "401 application/json {"error":"invalid_client"}": a short description for messages; what the target sent is
 * made inert and redacted (Redactor.untrusted) before it is cut. An OAuth error too long to quote whole is said as
 * its code and error_description, whole or its end: the specific reason comes last.
 */
export function describeResponse(
  response: HttpResponse,
  redactor: Pick<Redactor, "untrusted" | "untrustedPrefix">,
): string {
  const type = redactor.untrusted(response.headers["content-type"]?.split(";")[0] ?? "no content type");
  const body = redactor.untrustedPrefix(response.text.replace(/\s+/g, " ").trim(), MAX_SNIPPET);
  const oauthError = body.cut ? oauthErrorOf(response.text) : undefined;
  if (oauthError !== undefined)
    return `${response.status} ${type} ${describeOAuthError(oauthError, redactor)}`;
  const snippet = body.cut ? `${ownCopy(body.text)}…` : body.text;
  return `${response.status} ${type}${snippet ? ` ${snippet}` : " (empty body)"}`;
}

/** The body as a JSON object, or undefined. */
export function jsonObject(response: HttpResponse): Record<string, unknown> | undefined {
  const { json } = response;
  return typeof json === "object" && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;
}

export function accessTokenOf(response: HttpResponse): string | undefined {
  const token = jsonObject(response)?.access_token;
  return typeof token === "string" && token !== "" ? token : undefined;
}
