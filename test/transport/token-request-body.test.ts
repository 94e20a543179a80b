import { describe, expect, it } from "vitest";
import { Redactor, resolveTokenUrl, tokenRequestParts } from "../../contracts/index.ts";
import { Secret, targetTokenFields } from "../../transport/index.ts";

const FIELDS = {
  client_id: "shop 1",
  client_secret: "pa ss:wörd+/!",
  grant_type: "client_credentials",
  audience: "https://api.example.com",
};

describe("tokenRequestParts", () => {
  it("post: the credentials are form fields and there is no Authorization header", () => {
    const { headers, body } = tokenRequestParts("post", FIELDS);
    expect(headers).toEqual({ "content-type": "application/x-www-form-urlencoded" });
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual(FIELDS);
  });

  it("basic: the credentials move into an RFC 6749 §2.3.1 header and out of the form", () => {
    const { headers, body } = tokenRequestParts("basic", FIELDS);
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual({
      grant_type: "client_credentials",
      audience: "https://api.example.com",
    });
    const decoded = Buffer.from(String(headers.authorization).replace(/^Basic /, ""), "base64").toString();
    expect(decoded).toBe("shop+1:pa+ss%3Aw%C3%B6rd%2B%2F%21");
  });

  it("sends scope only when given, and leaves out fields a negative probe removes", () => {
    expect(
      new URLSearchParams(tokenRequestParts("post", { ...FIELDS, scope: undefined }).body).has("scope"),
    ).toBe(false);
    const scoped = tokenRequestParts("post", { ...FIELDS, scope: "profile email", audience: undefined });
    expect(new URLSearchParams(scoped.body).get("scope")).toBe("profile email");
    expect(new URLSearchParams(scoped.body).has("audience")).toBe(false);
  });

  it("every Basic encoding of the credentials is redacted", () => {
    const { headers } = tokenRequestParts("basic", FIELDS);
    const redactor = new Redactor().addBasic(FIELDS.client_id, FIELDS.client_secret);
    expect(redactor.redact(`authorization: ${headers.authorization}`)).toBe(
      "authorization: Basic <BASIC_CREDENTIALS>",
    );
  });
});

describe("resolveTokenUrl", () => {
  it("is the user's full URL, else the spec's path under the auth URL", () => {
    expect(
      resolveTokenUrl({ tokenUrl: "https://sso.example.com/realms/r/protocol/openid-connect/token" }),
    ).toBe("https://sso.example.com/realms/r/protocol/openid-connect/token");
    expect(resolveTokenUrl({ authUrl: "https://auth.example.com/" })).toBe(
      "https://auth.example.com/oauth/token",
    );
  });
});

describe("targetTokenFields", () => {
  const target = {
    clientId: "shop",
    clientSecret: new Secret("s3cret"),
    audience: "https://api.example.com",
  };

  it("sends the spec's fields, then --resource (RFC 8707) and every --token-param", () => {
    expect(
      targetTokenFields({
        ...target,
        scope: "profile email",
        resource: "https://api.example.com/",
        tokenParams: { organization: "org_1" },
      }),
    ).toEqual({
      client_id: "shop",
      client_secret: "s3cret",
      grant_type: "client_credentials",
      audience: "https://api.example.com",
      scope: "profile email",
      resource: "https://api.example.com/",
      organization: "org_1",
    });
  });

  it("leaves resource and extra parameters out when none is given", () => {
    expect(Object.keys(targetTokenFields(target))).toEqual([
      "client_id",
      "client_secret",
      "grant_type",
      "audience",
    ]);
  });
});
