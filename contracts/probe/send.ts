import type { RequestOptions } from "node:http";
import pactum from "pactum";
import { TransportError } from "../../core/index.ts";
import type { Connection } from "../../transport/connection/index.ts";
import { BodyCap, describeConnectionFailure, nodeRequestOptions } from "../../transport/connection/index.ts";
import { noAnswerWithin, requestDeadline } from "../../transport/deadline/index.ts";
import type { HttpRequest, HttpResponse } from "./http-request.ts";

// Pactum logs failed requests in full (secrets included): the harness writes its own redacted evidence instead.
pactum.settings.setLogLevel("SILENT");

/** The core option that carries a request's Node options through Pactum, wrapped in a function (see below). */
const NODE_OPTIONS_CARRIER = "eventHarnessNodeOptions";

// Pactum deep-copies core options, so an AbortSignal or an Agent would reach node:http as a plain object; functions
// pass through untouched, so the options travel inside one and are unwrapped just before the request leaves.
pactum.events.pactumEvents.on(
  pactum.events.EVENT_TYPES.BEFORE_REQUEST,
  ({ request }: { request: { core?: Record<string, unknown> } }) => {
    const carrier = request.core?.[NODE_OPTIONS_CARRIER];
    if (request.core === undefined || typeof carrier !== "function") return;
    delete request.core[NODE_OPTIONS_CARRIER];
    Object.assign(request.core, carrier());
  },
);

/** Core options for Pactum that carry `options` (signal, agent) past its deep copy. */
function carried(options: RequestOptions): Record<string, unknown> {
  return { [NODE_OPTIONS_CARRIER]: () => options };
}

interface PactumResponse {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
  text?: string;
  json?: unknown;
  responseTime?: number;
  code?: string;
  message?: string;
}

function describeFailure(error: PactumResponse): TransportError {
  const connection = describeConnectionFailure(error);
  if (connection !== undefined) return new TransportError(connection.message, connection.reason);
  // Pactum's transport errors carry the reason in the message about as often as in `code`.
  const said = `${error.code ?? ""} ${error.message ?? ""}`;
  if (/ECONNREFUSED/.test(said)) return new TransportError("connection refused", "ECONNREFUSED");
  if (/ECONNRESET|EPIPE|socket hang up|aborted/i.test(said))
    return new TransportError("connection reset by the target", "ECONNRESET");
  if (/ENOTFOUND|EAI_AGAIN/.test(said)) return new TransportError("host not found", "ENOTFOUND");
  return new TransportError(error.message || "request failed", error.code ?? "UNKNOWN");
}

/** The body as sent: its text as is (UTF-8), or its bytes in the encoding an input asks for. */
function bodyBytes(body: string, encoding: HttpRequest["bodyEncoding"]): string | Buffer {
  if (encoding === undefined || encoding === "utf-8") return body;
  if (encoding === "utf-16be") return Buffer.from(body, "utf16le").swap16();
  return Buffer.from(body, encoding);
}

/**
 * Sends one request through Pactum over `connection` (proxy, TLS) within one deadline for the whole exchange
 * (connect, headers, body); `outer` (the run's deadline) can end it sooner. A transport failure becomes a
 * TransportError, any HTTP status a response.
 */
export async function send(
  request: HttpRequest,
  timeoutMs: number,
  connection: Connection,
  outer?: AbortSignal,
): Promise<HttpResponse> {
  const cap = new BodyCap();
  let reach: RequestOptions;
  try {
    reach = nodeRequestOptions(request.url, connection, timeoutMs, cap);
  } catch (error) {
    throw describeFailure(error as PactumResponse);
  }
  const deadline = requestDeadline(timeoutMs, outer);
  const spec = pactum
    .spec()
    .withMethod(request.method)
    .withPath(request.url)
    .withHeaders({ ...request.headers })
    .withRequestTimeout(timeoutMs)
    .withFollowRedirects(false)
    .withCore(carried({ ...reach, signal: deadline.signal }));
  if (request.body !== undefined) spec.withBody(bodyBytes(request.body, request.bodyEncoding));
  let response: PactumResponse;
  try {
    // Without an HTTP answer Pactum either rejects or resolves with the error object itself.
    response = (await spec.toss().catch((error: unknown) => error)) as PactumResponse;
  } finally {
    deadline.dispose();
  }
  // The cap ended the exchange: whatever Pactum made of the cut-off body, the answer is unknown.
  if (cap.exceeded !== undefined) throw new TransportError(cap.exceeded.message, "TOO_LARGE");
  const cut = deadline.cutShort();
  if (cut !== undefined) throw new TransportError(cut.message, cut.by === "timeout" ? "TIMEOUT" : "DEADLINE");
  if (typeof response?.statusCode !== "number") {
    // Pactum's own (idle) timeout can only fire at the same moment as the deadline: report it the same way.
    if (/timeout|ETIMEDOUT/i.test(`${response?.code ?? ""} ${response?.message ?? ""}`))
      throw new TransportError(noAnswerWithin(timeoutMs), "TIMEOUT");
    throw describeFailure(response ?? {});
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return {
    status: response.statusCode,
    headers,
    text: response.text ?? "",
    json: response.json ?? undefined,
    durationMs: response.responseTime ?? 0,
  };
}
