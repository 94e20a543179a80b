import { describe, expect, it } from "vitest";
import { connectionFailureReason, viaProxy } from "../../cli/connection-failure.ts";
import type { Connection } from "../../transport/connection/index.ts";

const coded = (code: string) => Object.assign(new Error(`${code} raw`), { code });

function proxied(proxy: Partial<Connection["proxy"]>): Connection {
  return { insecure: false, proxy: { httpProxy: "", httpsProxy: "", noProxy: "", ...proxy } };
}

describe("connectionFailureReason", () => {
  it("says a TLS failure plainly, whether undici throws it or wraps it in its cause", () => {
    expect(connectionFailureReason(coded("CERT_HAS_EXPIRED"))).toBe(
      "TLS: the target's certificate has expired",
    );
    const wrapped = Object.assign(new TypeError("fetch failed"), { cause: coded("CERT_HAS_EXPIRED") });
    expect(connectionFailureReason(wrapped)).toBe("TLS: the target's certificate has expired");
    expect(connectionFailureReason(coded("EPROTO"))).toMatch(/^TLS handshake failed \(EPROTO\)/);
  });

  it("says nothing of a failure that is no TLS, CA or proxy failure", () => {
    expect(connectionFailureReason(coded("ECONNREFUSED"))).toBeUndefined();
    expect(connectionFailureReason(new Error("plain"))).toBeUndefined();
    expect(connectionFailureReason(null)).toBeUndefined();
    expect(connectionFailureReason(undefined)).toBeUndefined();
    expect(connectionFailureReason({ cause: null })).toBeUndefined();
  });
});

describe("viaProxy", () => {
  it("names the proxy a request goes through, without its user info", () => {
    const connection = proxied({ httpsProxy: "http://user:p%40ss@proxy.example.com:3128" });
    expect(viaProxy("https://api.example.com/events", connection)).toBe(
      " via the proxy http://proxy.example.com:3128",
    );
  });

  it("says nothing with no proxy, or for a host NO_PROXY exempts", () => {
    expect(viaProxy("https://api.example.com", proxied({}))).toBe("");
    const connection = proxied({ httpProxy: "http://proxy:3128", noProxy: "example.com" });
    expect(viaProxy("http://api.example.com/x", connection)).toBe("");
    expect(viaProxy("http://other.test/x", connection)).toBe(" via the proxy http://proxy:3128");
  });
});
