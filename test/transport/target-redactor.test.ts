import { describe, expect, it } from "vitest";
import { Secret, targetRedactor } from "../../transport/index.ts";

const SECRET = "client-s3cret-77ab";
const API_KEY = "api-key-value-0f9e";

describe("targetRedactor", () => {
  const redactor = targetRedactor({
    clientId: "harness-client",
    clientSecret: new Secret(SECRET),
    tokenParams: { api_key: API_KEY },
  });

  it("hides the client secret as a form field would carry it", () => {
    expect(redactor.redact(`client_id=harness-client&client_secret=${SECRET}`)).toBe(
      "client_id=harness-client&client_secret=<CLIENT_SECRET>",
    );
  });

  it("hides the client's HTTP Basic credentials", () => {
    const basic = Buffer.from(`harness-client:${SECRET}`).toString("base64");
    const shown = redactor.redact(`authorization: Basic ${basic}`);
    expect(shown).toBe("authorization: Basic <BASIC_CREDENTIALS>");
  });

  it("hides each token parameter's value, raw and base64, by the parameter's name", () => {
    const encoded = Buffer.from(API_KEY).toString("base64");
    expect(redactor.redact(`api_key=${API_KEY} echoed=${encoded}`)).toBe(
      "api_key=<TOKEN_PARAM:api_key> echoed=<TOKEN_PARAM:api_key>",
    );
  });

  it("works for a target without token parameters, and leaves the client id shown", () => {
    const plain = targetRedactor({ clientId: "harness-client", clientSecret: new Secret(SECRET) });
    expect(plain.redact(`harness-client ${SECRET}`)).toBe("harness-client <CLIENT_SECRET>");
  });
});
