import { describe, expect, it } from "vitest";
import { ConnectionError } from "../../../core/index.ts";
import { describeConnectionFailure } from "../../../transport/connection/index.ts";

/** An error as Node's TLS and socket layers raise it: a message and a code. */
function nodeError(code: unknown, message = "something failed"): Error {
  return Object.assign(new Error(message), { code });
}

describe("describeConnectionFailure", () => {
  it("says an untrusted certificate is untrusted, with the code and what to do", () => {
    for (const code of [
      "SELF_SIGNED_CERT_IN_CHAIN",
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
    ]) {
      const described = describeConnectionFailure(nodeError(code));
      expect(described).toBeInstanceOf(ConnectionError);
      expect(described?.reason).toBe(code);
      expect(described?.message).toBe(
        `TLS: the target's certificate is not trusted (${code}): give its CA in NODE_EXTRA_CA_CERTS (a PEM file), or --insecure for a throwaway sandbox`,
      );
    }
  });

  it("names an expired certificate, a certificate for another host and a failed handshake apart", () => {
    expect(describeConnectionFailure(nodeError("CERT_HAS_EXPIRED"))?.message).toBe(
      "TLS: the target's certificate has expired",
    );
    expect(describeConnectionFailure(nodeError("ERR_TLS_CERT_ALTNAME_INVALID"))?.message).toBe(
      "TLS: the target's certificate does not name its host (ERR_TLS_CERT_ALTNAME_INVALID)",
    );
    for (const code of ["EPROTO", "ERR_SSL_WRONG_VERSION_NUMBER"]) {
      expect(describeConnectionFailure(nodeError(code))).toMatchObject({
        reason: code,
        message: `TLS handshake failed (${code}): is the URL's scheme (http/https) right?`,
      });
    }
  });

  it("passes a ConnectionError on as it is", () => {
    const error = new ConnectionError(
      "the proxy http://p:1 could not be reached (ECONNREFUSED)",
      "PROXY_UNREACHABLE",
    );
    expect(describeConnectionFailure(error)).toBe(error);
  });

  it("has nothing to say of other failures, or of what is no error", () => {
    for (const failure of [
      nodeError("ECONNREFUSED"),
      nodeError(42),
      new Error("plain"),
      null,
      undefined,
      "text",
    ]) {
      expect(describeConnectionFailure(failure)).toBeUndefined();
    }
  });

  it("never repeats the failure's own message, which may quote a header or a URL's user info", () => {
    const described = describeConnectionFailure(
      nodeError("CERT_HAS_EXPIRED", "https://user:hunter2@host failed"),
    );
    expect(described?.reason).toBe("CERT_HAS_EXPIRED");
    expect(described?.message).not.toContain("hunter2");
  });
});
