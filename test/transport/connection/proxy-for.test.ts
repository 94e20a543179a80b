import { describe, expect, it } from "vitest";
import { connectionFromEnv, displayProxy, proxyFor } from "../../../contracts/index.ts";

const proxies = (noProxy = "") => ({
  httpProxy: "http://plain:3128",
  httpsProxy: "http://tls:3128",
  noProxy,
});

describe("proxyFor", () => {
  it("takes HTTPS_PROXY for https and HTTP_PROXY for http, and HTTP_PROXY for https when HTTPS_PROXY is unset", () => {
    expect(proxyFor("https://api.example.com/x", proxies())).toBe("http://tls:3128");
    expect(proxyFor("http://api.example.com/x", proxies())).toBe("http://plain:3128");
    expect(proxyFor("https://api.example.com", { ...proxies(), httpsProxy: "" })).toBe("http://plain:3128");
    expect(
      proxyFor("https://api.example.com", { httpProxy: "", httpsProxy: "", noProxy: "" }),
    ).toBeUndefined();
  });

  it("matches NO_PROXY as undici does: exact hosts, subdomains, leading dots and stars, ports, and *", () => {
    const none = (url: string, noProxy: string) => proxyFor(url, proxies(noProxy));
    expect(none("https://api.example.com", "example.com")).toBeUndefined();
    expect(none("https://api.example.com", ".example.com")).toBeUndefined();
    expect(none("https://api.example.com", "*.example.com")).toBeUndefined();
    expect(none("https://notexample.com", "example.com")).toBe("http://tls:3128");
    expect(none("https://api.example.com:8443", "api.example.com:443")).toBe("http://tls:3128");
    expect(none("https://api.example.com", "api.example.com:443")).toBeUndefined();
    expect(none("https://127.0.0.1:9", "localhost, 127.0.0.1")).toBeUndefined();
    expect(none("https://anything.example", "*")).toBeUndefined();
  });
});

describe("connectionFromEnv", () => {
  it("reads lower-case names first, like curl and undici, and the CA file from NODE_EXTRA_CA_CERTS", () => {
    const connection = connectionFromEnv(
      {
        https_proxy: "http://lower:1",
        HTTPS_PROXY: "http://upper:2",
        NO_PROXY: "a.example",
        NODE_EXTRA_CA_CERTS: "/ca.pem",
      },
      false,
    );
    expect(connection).toEqual({
      insecure: false,
      caFile: "/ca.pem",
      proxy: { httpProxy: "", httpsProxy: "http://lower:1", noProxy: "a.example" },
    });
  });
});

describe("displayProxy", () => {
  it("drops user name and password", () => {
    expect(displayProxy("http://user:pa55@proxy.example.com:3128/")).toBe("http://proxy.example.com:3128");
  });
});
