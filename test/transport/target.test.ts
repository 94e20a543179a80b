import { describe, expect, it } from "vitest";
import {
  describeTokenEndpoint,
  eventsUrl,
  foreignTokenOrigin,
  mapTokenEndpointFacts,
  resolveTokenUrl,
  tokenEndpointFacts,
} from "../../transport/index.ts";

describe("resolveTokenUrl", () => {
  it("takes the user's full token URL as it is, before any auth URL", () => {
    expect(
      resolveTokenUrl({ authUrl: "https://auth.test", tokenUrl: "https://idp.test/realms/x/token" }),
    ).toBe("https://idp.test/realms/x/token");
  });

  it("puts the spec's path under the auth URL, without doubling its trailing slashes", () => {
    expect(resolveTokenUrl({ authUrl: "https://auth.test" })).toBe("https://auth.test/oauth/token");
    expect(resolveTokenUrl({ authUrl: "https://auth.test/tenant-a//" })).toBe(
      "https://auth.test/tenant-a/oauth/token",
    );
  });

  it("refuses a target with neither", () => {
    expect(() => resolveTokenUrl({})).toThrow("a target needs an auth URL or a token URL");
  });
});

describe("eventsUrl", () => {
  it("is {base_url}/events", () => {
    expect(eventsUrl({ baseUrl: "https://api.test/v1" })).toBe("https://api.test/v1/events");
  });
});

describe("foreignTokenOrigin and tokenEndpointFacts", () => {
  it("says nothing of origins without an issuer, or when the token endpoint is on the issuer's origin", () => {
    expect(foreignTokenOrigin({ tokenUrl: "https://a.test/token" })).toBeUndefined();
    expect(
      foreignTokenOrigin({ tokenUrl: "https://a.test:443/x/token", issuer: "https://A.test/x" }),
    ).toBeUndefined();
    expect(tokenEndpointFacts({ tokenUrl: "https://a.test/token" })).toEqual({
      tokenUrl: "https://a.test/token",
    });
  });

  it("names the token endpoint's origin when the issuer's metadata put it elsewhere, port and scheme counting", () => {
    const issuer = "https://login.test/tenant/v2.0";
    expect(foreignTokenOrigin({ tokenUrl: "https://login.test:8443/tenant/token", issuer })).toBe(
      "https://login.test:8443",
    );
    expect(foreignTokenOrigin({ tokenUrl: "http://login.test/tenant/token", issuer })).toBe(
      "http://login.test",
    );
    expect(tokenEndpointFacts({ tokenUrl: "https://tokens.test/oauth2/token", issuer })).toEqual({
      tokenUrl: "https://tokens.test/oauth2/token",
      issuer,
      tokenEndpointOrigin: "https://tokens.test",
    });
  });
});

describe("describeTokenEndpoint and mapTokenEndpointFacts", () => {
  const foreign = {
    tokenUrl: "https://tokens.test/token",
    issuer: "https://login.test",
    tokenEndpointOrigin: "https://tokens.test",
  };

  it("says where tokens come from, and that it is another origin than the issuer when so", () => {
    expect(describeTokenEndpoint({ tokenUrl: "https://a.test/token" })).toBe(
      "token endpoint https://a.test/token",
    );
    expect(describeTokenEndpoint({ tokenUrl: "https://a.test/token", issuer: "https://a.test" })).toBe(
      "token endpoint https://a.test/token",
    );
    expect(describeTokenEndpoint(foreign)).toBe(
      "token endpoint https://tokens.test/token on https://tokens.test, another origin than the issuer https://login.test",
    );
  });

  it("formats the URLs only, never its own words", () => {
    expect(describeTokenEndpoint(foreign, (url) => `\`${url}\``)).toBe(
      "token endpoint `https://tokens.test/token` on `https://tokens.test`, another origin than the issuer `https://login.test`",
    );
  });

  it("maps each URL it holds and adds none", () => {
    const upper = (url: string) => url.toUpperCase();
    expect(mapTokenEndpointFacts(foreign, upper)).toEqual({
      tokenUrl: "HTTPS://TOKENS.TEST/TOKEN",
      issuer: "HTTPS://LOGIN.TEST",
      tokenEndpointOrigin: "HTTPS://TOKENS.TEST",
    });
    expect(mapTokenEndpointFacts({ tokenUrl: "https://a.test/t" }, upper)).toEqual({
      tokenUrl: "HTTPS://A.TEST/T",
    });
  });
});
