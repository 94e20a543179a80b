import type { OutgoingHttpHeaders, ServerResponse } from "node:http";

/** Writes a complete response in one go, with Content-Length so keep-alive needs no chunked encoding. */
export function reply(
  res: ServerResponse,
  status: number,
  contentType: string | undefined,
  body: string,
  headers?: OutgoingHttpHeaders,
): void {
  const all: OutgoingHttpHeaders = { ...headers, "content-length": Buffer.byteLength(body) };
  if (contentType !== undefined) all["content-type"] = contentType;
  res.writeHead(status, all);
  res.end(body);
}

export const JSON_TYPE = "application/json";

export function replyJson(
  res: ServerResponse,
  status: number,
  body: string,
  headers?: OutgoingHttpHeaders,
): void {
  reply(res, status, JSON_TYPE, body, headers);
}

/** A `{"Message": …}` body, the shape production uses for every API answer. */
export function messageBody(message: string): string {
  return JSON.stringify({ Message: message });
}

export function replyEmpty(res: ServerResponse, status: number, headers?: OutgoingHttpHeaders): void {
  reply(res, status, undefined, "", headers);
}
