import { describe, expect, it } from "vitest";
import { issuerCandidates, metadataUrls } from "../../../transport/discovery/index.ts";

describe("metadataUrls", () => {
  it("keeps the issuer's origin as URL writes it: a default port dropped, another kept", () => {
    expect(metadataUrls("https://AS.test:443/realm")).toEqual([
      "https://as.test/realm/.well-known/openid-configuration",
      "https://as.test/.well-known/oauth-authorization-server/realm",
    ]);
    expect(metadataUrls("http://127.0.0.1:8080/")).toEqual([
      "http://127.0.0.1:8080/.well-known/openid-configuration",
      "http://127.0.0.1:8080/.well-known/oauth-authorization-server",
    ]);
  });

  it("leaves an issuer's query and fragment out of the well-known URLs", () => {
    expect(metadataUrls("https://as.test/t?x=1#frag")).toEqual([
      "https://as.test/t/.well-known/openid-configuration",
      "https://as.test/.well-known/oauth-authorization-server/t",
    ]);
  });

  it("refuses what is not a URL", () => {
    expect(() => metadataUrls("as.test/realm")).toThrow(TypeError);
  });
});

describe("issuerCandidates", () => {
  it("starts from the URL itself and shortens it a segment at a time, empty segments skipped", () => {
    expect(issuerCandidates("https://as.test//auth/realms/x/")).toEqual([
      "https://as.test/auth/realms/x",
      "https://as.test/auth/realms",
      "https://as.test/auth",
      "https://as.test",
    ]);
  });

  it("gives as many as asked at most, and the origin alone for a URL without a path", () => {
    expect(issuerCandidates("https://as.test/a/b/c", 2)).toEqual([
      "https://as.test/a/b/c",
      "https://as.test/a/b",
    ]);
    expect(issuerCandidates("https://as.test/a", 0)).toEqual([]);
    expect(issuerCandidates("https://as.test")).toEqual(["https://as.test"]);
  });
});
