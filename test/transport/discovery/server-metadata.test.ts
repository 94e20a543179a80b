import { describe, expect, it } from "vitest";
import {
  DEFAULT_AUTH_METHODS,
  sameIssuer,
  serverMetadataSchema,
} from "../../../transport/discovery/server-metadata.ts";

const MINIMAL = { issuer: "https://as.test", token_endpoint: "https://as.test/oauth/token" };

describe("serverMetadataSchema", () => {
  it("reads RFC 8414's fields and keeps what else a server publishes", () => {
    const parsed = serverMetadataSchema.parse({
      ...MINIMAL,
      token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt"],
      introspection_endpoint: "https://as.test/introspect",
      jwks_uri: "https://as.test/jwks",
    });
    expect(parsed).toEqual({
      ...MINIMAL,
      token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt"],
      introspection_endpoint: "https://as.test/introspect",
      jwks_uri: "https://as.test/jwks",
    });
  });

  it("refuses metadata without an issuer or with a token endpoint that is not an HTTP(S) URL", () => {
    for (const bad of [
      { ...MINIMAL, issuer: "" },
      { token_endpoint: MINIMAL.token_endpoint },
      { ...MINIMAL, token_endpoint: "javascript:alert(1)" },
      { ...MINIMAL, token_endpoint: "ftp://as.test/token" },
      { ...MINIMAL, token_endpoint: "/oauth/token" },
      { ...MINIMAL, token_endpoint_auth_methods_supported: "client_secret_post" },
    ]) {
      expect(serverMetadataSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("ignores an introspection endpoint that is not an HTTP(S) URL rather than refusing the metadata", () => {
    for (const endpoint of ["file:///etc/passwd", "not a url", 42]) {
      const parsed = serverMetadataSchema.parse({ ...MINIMAL, introspection_endpoint: endpoint });
      expect(parsed.introspection_endpoint).toBeUndefined();
    }
  });
});

describe("DEFAULT_AUTH_METHODS", () => {
  it("is client_secret_basic alone, as RFC 8414 §2 says of a server that lists none", () => {
    expect(DEFAULT_AUTH_METHODS).toEqual(["client_secret_basic"]);
  });
});

describe("sameIssuer", () => {
  it("takes issuers that differ only by trailing slashes as the same", () => {
    expect(sameIssuer("https://as.test/realm", "https://as.test/realm/")).toBe(true);
    expect(sameIssuer("https://as.test//", "https://as.test")).toBe(true);
  });

  it("compares everything else exactly: case, port, scheme and path", () => {
    expect(sameIssuer("https://as.test/Realm", "https://as.test/realm")).toBe(false);
    expect(sameIssuer("https://as.test:443", "https://as.test")).toBe(false);
    expect(sameIssuer("http://as.test", "https://as.test")).toBe(false);
    expect(sameIssuer("https://as.test/a", "https://as.test/a/b")).toBe(false);
  });
});
