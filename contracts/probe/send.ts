import pactum from "pactum";
import type { Connection } from "../connection/index.ts";
import { describeConnectionFailure, nodeRequestOptions } from "../connection/index.ts";
import type { HttpRequest, HttpResponse } from "./http-request.ts";
import { TransportError } from "./transport-error.ts";

// Pactum logs failed requests in full (secrets included): the harness writes its own redacted evidence instead.
pactum.settings.setLogLevel("SILENT");

interface PactumResponse {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
  text?: string;
  json?: unknown;
  responseTime?: number;
  code?: string;
  message?: string;
}

function describeFailure(error: PactumResponse, timeoutMs: number): TransportError {
  const connection = describeConnectionFailure(error);
  if (connection !== undefined) return new TransportError(connection.message, connection.code);
  // Pactum's transport errors carry the reason in the message about as often as in `code`.
  const said = `${error.code ?? ""} ${error.message ?? ""}`;
  if (/ECONNREFUSED/.test(said)) return new TransportError("connection refused", "ECONNREFUSED");
  if (/ECONNRESET|EPIPE|socket hang up/i.test(said))
    return new TransportError("connection reset by the target", "ECONNRESET");
  if (/timeout|ETIMEDOUT/i.test(said))
    return new TransportError(`no response within ${timeoutMs} ms`, "TIMEOUT");
  if (/ENOTFOUND|EAI_AGAIN/.test(said)) return new TransportError("host not found", "ENOTFOUND");
  return new TransportError(error.message || "request failed", error.code ?? "UNKNOWN");
}

/** Sends one request through Pactum; a transport failure becomes a TransportError, any HTTP status a response. */
export async function send(
  request: HttpRequest,
  timeoutMs: number,
  connection: Connection,
): Promise<HttpResponse> {
  let core: Record<string, unknown>;
  try {
    core = nodeRequestOptions(request.url, connection, timeoutMs);
  } catch (error) {
    throw describeFailure(error as PactumResponse, timeoutMs);
  }
  const spec = pactum
    .spec()
    .withMethod(request.method)
    .withPath(request.url)
    .withHeaders({ ...request.headers })
    .withRequestTimeout(timeoutMs)
    .withFollowRedirects(false)
    .withCore(core);
  if (request.body !== undefined) spec.withBody(request.body);
  // Without an HTTP answer Pactum either rejects or resolves with the error object itself.
  const response = (await spec.toss().catch((error: unknown) => error)) as PactumResponse;
  if (typeof response?.statusCode !== "number") throw describeFailure(response ?? {}, timeoutMs);
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
