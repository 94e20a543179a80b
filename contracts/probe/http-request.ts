/** A request as the harness means to send it: the body already serialised, so evidence shows the exact bytes. */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** How the body's text becomes bytes (an input in another encoding); default UTF-8. */
  readonly bodyEncoding?: "utf-8" | "utf-16le" | "utf-16be" | "latin1";
}

export interface HttpResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
  readonly durationMs: number;
}

export function jsonRequest(
  url: string,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): HttpRequest {
  return {
    method: "POST",
    url,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(value),
  };
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export function isClientError(status: number): boolean {
  return status >= 400 && status < 500;
}

export function isServerError(status: number): boolean {
  return status >= 500 && status < 600;
}
