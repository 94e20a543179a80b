import type { Connection } from "../transport/connection/index.ts";
import { describeConnectionFailure, displayProxy, proxyFor } from "../transport/connection/index.ts";

/** A TLS, CA-file or proxy failure of an undici request said plainly; undici wraps some of them in `cause`. */
export function connectionFailureReason(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return (describeConnectionFailure(error) ?? describeConnectionFailure(cause))?.message;
}

/** " via the proxy …" (without its user info) when a request to `url` goes through one, else "". */
export function viaProxy(url: string, connection: Connection): string {
  const proxy = proxyFor(url, connection.proxy);
  return proxy === undefined ? "" : ` via the proxy ${displayProxy(proxy)}`;
}
