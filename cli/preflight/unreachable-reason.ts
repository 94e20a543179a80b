import { connectionFailureReason } from "../connection-failure.ts";
import { errorReason } from "../error-reason.ts";

const PLAIN: ReadonlyArray<readonly [RegExp, string]> = [
  [/ECONNREFUSED/, "connection refused"],
  [/ENOTFOUND|EAI_AGAIN/, "host not found"],
  [/ECONNRESET|EPIPE|UND_ERR_SOCKET|socket hang up/i, "connection reset by the target"],
  [/EHOSTUNREACH|ENETUNREACH/, "host unreachable"],
];

/** The first hop refused or was not found: through a proxy, that is the proxy, not the target. */
export function isConnectFailure(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = `${errorReason(error)} ${cause === undefined ? "" : errorReason(cause)}`;
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(code);
}

/** Why a request got no answer, in words: the TLS, CA and proxy explanations first, then the socket's error code. */
export function unreachableReason(error: unknown): string {
  const explained = connectionFailureReason(error);
  if (explained !== undefined) return explained;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = `${errorReason(error)} ${cause === undefined ? "" : errorReason(cause)}`;
  return PLAIN.find(([pattern]) => pattern.test(code))?.[1] ?? errorReason(error);
}
