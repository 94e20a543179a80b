import { locationOrigin } from "../../transport/connection/index.ts";
import type { Redactor } from "../../transport/index.ts";
import type { HttpRequest, HttpResponse } from "./http-request.ts";
import { ownCopy } from "./own-copy.ts";

/** One HTTP exchange as it appears in a report: already redacted. */
export interface Evidence {
  readonly label: string;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly durationMs: number;
  };
  /** Why there is no response (timeout, connection refused…). */
  readonly error?: string;
  /** A curl command that reproduces the request, with credentials replaced by placeholders. */
  readonly curl: string;
}

/** Evidence bodies are cut here: enough to see the problem, never a megabyte in a CI log. */
const MAX_BODY_CHARS = 2_000;

/** A body made safe (Redactor.untrusted) and cut, with only the part kept ever searched. */
function safeBody(redactor: Redactor, text: string): string {
  const shown = redactor.untrustedPrefix(text, MAX_BODY_CHARS);
  return shown.cut ? `${ownCopy(shown.text)}… (${text.length} chars)` : shown.text;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** A curl command for the request; built from values already redacted, so quoting cannot hide a secret. */
export function curlCommand(request: HttpRequest): string {
  const parts = ["curl", "-sS", "-i", "-X", request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers))
    parts.push("-H", shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push("--data-raw", shellQuote(request.body));
  return parts.join(" ");
}

/** Headers that carry credentials in a request: the client's own or a proxy's. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(["authorization", "proxy-authorization"]);
/** HTTP Basic in any case, with or without its credentials. */
const BASIC = /^basic(?:\s|$)/i;

/**
 * A request header as evidence shows it. Basic credentials are never shown, whatever they hold: a probe's unknown
 * client or wrong secret is sent beside the real one, and its base64 holds the real secret at an alignment no
 * registered form matches.
 */
function requestHeader(redactor: Redactor, name: string, value: string): string {
  if (CREDENTIAL_HEADERS.has(name.toLowerCase()) && BASIC.test(value)) return "Basic <BASIC_CREDENTIALS>";
  return redactor.untrusted(value);
}

function safeHeaders(
  redactor: Redactor,
  headers: Readonly<Record<string, string>>,
  url: string,
  sent: boolean,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      redactor.untrusted(name),
      // A Location's path and query are the target's to choose: evidence keeps only where it points.
      name === "location"
        ? `${locationOrigin(value, url) ?? "(not an http(s) URL)"} (path not shown)`
        : sent
          ? requestHeader(redactor, name, value)
          : redactor.untrusted(value),
    ]),
  );
}

/**
 * Builds one piece of evidence: every string of the request and the answer passes `redactor.untrusted` (secrets
 * and tokens hidden, controls made visible) before anything is built from it; the label is the harness's.
 */
export function evidenceOf(
  redactor: Redactor,
  label: string,
  request: HttpRequest,
  outcome: { response: HttpResponse } | { error: string },
): Evidence {
  const safeRequest = {
    method: redactor.untrusted(request.method),
    url: redactor.untrusted(request.url),
    headers: safeHeaders(redactor, request.headers, request.url, true),
  };
  const body = request.body === undefined ? {} : { body: safeBody(redactor, request.body) };
  // The curl line repeats the request whole: the harness's own bodies are small (an event, a token form).
  const curl = curlCommand({
    ...safeRequest,
    ...(request.body === undefined ? {} : { body: redactor.untrusted(request.body) }),
  });
  const base = { label, request: { ...safeRequest, ...body }, curl };
  if ("error" in outcome) return { ...base, error: redactor.untrusted(outcome.error) };
  const { response } = outcome;
  return {
    ...base,
    response: {
      status: response.status,
      headers: safeHeaders(redactor, response.headers, request.url, false),
      ...(response.text === "" ? {} : { body: safeBody(redactor, response.text) }),
      durationMs: response.durationMs,
    },
  };
}
