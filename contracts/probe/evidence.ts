import type { Evidence } from "../checks/check-result.ts";
import { locationOrigin } from "../connection/index.ts";
import type { Redactor } from "../target/index.ts";
import { excerpt } from "./excerpt.ts";
import type { HttpRequest, HttpResponse } from "./http-request.ts";

/** Evidence bodies are cut here: enough to see the problem, never a megabyte in a CI log. */
const MAX_BODY_CHARS = 2_000;

function clip(text: string): string {
  return text.length <= MAX_BODY_CHARS ? text : `${excerpt(text, MAX_BODY_CHARS)}… (${text.length} chars)`;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** A curl command for the request; redacted afterwards like everything else in the evidence. */
export function curlCommand(request: HttpRequest): string {
  const parts = ["curl", "-sS", "-i", "-X", request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers))
    parts.push("-H", shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push("--data-raw", shellQuote(request.body));
  return parts.join(" ");
}

/** Builds one piece of evidence, with every secret and token replaced by a placeholder. */
export function evidenceOf(
  redactor: Redactor,
  label: string,
  request: HttpRequest,
  outcome: { response: HttpResponse } | { error: string },
): Evidence {
  const redactedRequest = {
    method: request.method,
    url: redactor.redact(request.url),
    headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, redactor.redact(v)])),
    ...(request.body === undefined ? {} : { body: clip(redactor.redact(request.body)) }),
  };
  const base = { label, request: redactedRequest, curl: redactor.redact(curlCommand(request)) };
  if ("error" in outcome) return { ...base, error: redactor.redact(outcome.error) };
  const { response } = outcome;
  return {
    ...base,
    response: {
      status: response.status,
      headers: Object.fromEntries(
        Object.entries(response.headers).map(([k, v]) => [
          k,
          // A Location's path and query are the target's to choose: evidence keeps only where it points.
          k === "location"
            ? `${locationOrigin(v, request.url) ?? "(not an http(s) URL)"} (path not shown)`
            : redactor.redact(v),
        ]),
      ),
      ...(response.text === "" ? {} : { body: clip(redactor.redact(response.text)) }),
      durationMs: response.durationMs,
    },
  };
}
