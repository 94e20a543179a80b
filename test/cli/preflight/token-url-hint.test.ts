import { tokenUrlHint } from "../../../cli/preflight/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("tokenUrlHint", () => {
  it.for([
    ["https://idp.example/oauth/token/oauth/token", "https://idp.example/oauth/token"],
    ["https://idp.example/realms/x/token/oauth/token", "https://idp.example/realms/x/token"],
    ["https://idp.example/oauth/token//oauth/token", "https://idp.example/oauth/token"],
    ["https://user:pw@idp.example/t/oauth/token/oauth/token", "https://idp.example/t/oauth/token"],
  ] as const)("suggests the path without the spec's path appended once more: %s", ([tried, meant]) => {
    expect(tokenUrlHint(tried)).toBe(meant);
  });

  it.for([
    ["https://idp.example/oauth/token"],
    ["https://idp.example/auth/oauth/token"],
    ["https://idp.example/oauth/token/extra"],
    ["https://idp.example/tokens/oauth/token"],
    ["not a url"],
  ] as const)("has no suggestion for %s", ([tried]) => {
    expect(tokenUrlHint(tried)).toBeUndefined();
  });
});
