import { ConnectionError } from "../../core/index.ts";

/** OpenSSL and Node codes of a certificate the client does not trust. */
const UNTRUSTED = new Set([
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
]);

const HINT = "give its CA in NODE_EXTRA_CA_CERTS (a PEM file), or --insecure for a throwaway sandbox";

/**
 * A TLS or proxy failure said plainly (what failed and what to do), or undefined when the failure is something
 * else. Messages name codes and hosts only: never a header, a URL's user info or a body.
 */
export function describeConnectionFailure(error: unknown): ConnectionError | undefined {
  if (error instanceof ConnectionError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  if (UNTRUSTED.has(code))
    return new ConnectionError(`TLS: the target's certificate is not trusted (${code}): ${HINT}`, code);
  if (code === "CERT_HAS_EXPIRED")
    return new ConnectionError("TLS: the target's certificate has expired", code);
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    return new ConnectionError(
      "TLS: the target's certificate does not name its host (ERR_TLS_CERT_ALTNAME_INVALID)",
      code,
    );
  }
  if (code === "EPROTO" || code.startsWith("ERR_SSL_")) {
    return new ConnectionError(
      `TLS handshake failed (${code}): is the URL's scheme (http/https) right?`,
      code,
    );
  }
  return undefined;
}
