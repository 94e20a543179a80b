import { excerpt } from "../probe/excerpt.ts";
import type { HttpResponse } from "../probe/http-request.ts";

const MAX_SNIPPET = 160;

/** "401 application/json {"error":"invalid_client"}": a short, already-redacted description for messages. */
export function describeResponse(response: HttpResponse, redact: (text: string) => string): string {
  const type = response.headers["content-type"]?.split(";")[0] ?? "no content type";
  const body = redact(response.text.replace(/\s+/g, " ").trim());
  const snippet = body.length > MAX_SNIPPET ? `${excerpt(body, MAX_SNIPPET)}…` : body;
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
