import { describe, expect, it } from "vitest";
import { parseTokenResponse } from "../../../load/index.ts";

describe("parseTokenResponse", () => {
  it("reads access_token and expires_in", () => {
    expect(parseTokenResponse(200, '{"access_token":"t","expires_in":300,"token_type":"Bearer"}')).toEqual({
      accessToken: "t",
      expiresInSeconds: 300,
    });
  });

  it.each([
    ["a non-200 status", 401, '{"access_token":"t","expires_in":300}'],
    ["no body", 200, null],
    ["HTML", 200, "<html>login</html>"],
    ["no access_token", 200, '{"expires_in":300}'],
    ["an empty access_token", 200, '{"access_token":"","expires_in":300}'],
    ["no expires_in", 200, '{"access_token":"t"}'],
    ["a zero expires_in", 200, '{"access_token":"t","expires_in":0}'],
    ["a non-numeric expires_in", 200, '{"access_token":"t","expires_in":"soon"}'],
    // One rule with the contract: a numeric string or a fraction is the target's fault, not a lifetime to guess.
    ["a numeric string expires_in", 200, '{"access_token":"t","expires_in":"3600"}'],
    ["a fractional expires_in", 200, '{"access_token":"t","expires_in":0.5}'],
  ])("gives no token for %s", (_label, status, body) => {
    expect(parseTokenResponse(status, body)).toBeUndefined();
  });
});
