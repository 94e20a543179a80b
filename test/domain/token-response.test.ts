import { describe, expect, it } from "vitest";
import { SPEC_SCOPES, scopeSet, tokenResponseSchema } from "../../domain/index.ts";
import { PRODUCTION_TOKEN_RESPONSE } from "../support/production-token-response.ts";

const production = PRODUCTION_TOKEN_RESPONSE;

describe("token response schema", () => {
  it("accepts production's response: capital-B Bearer, scopes in another order, a real not-before-policy", () => {
    expect(tokenResponseSchema.safeParse(production).success).toBe(true);
    expect(scopeSet(production.scope)).toEqual(new Set(SPEC_SCOPES));
  });

  it("names every mistyped or missing field by its path", () => {
    const result = tokenResponseSchema.safeParse({
      access_token: "",
      expires_in: "300",
      token_type: "mac",
      "not-before-policy": 1.5,
      scope: "profile  email",
    });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.code])).toMatchInlineSnapshot(`
      [
        [
          "access_token",
          "too_small",
        ],
        [
          "expires_in",
          "invalid_type",
        ],
        [
          "token_type",
          "invalid_format",
        ],
        [
          "not-before-policy",
          "invalid_type",
        ],
        [
          "scope",
          "invalid_format",
        ],
      ]
    `);
  });

  it("requires only the fields the spec's rules use: the example's own (Keycloak's) may be absent", () => {
    expect(
      tokenResponseSchema.safeParse({ access_token: "t", expires_in: 300, token_type: "Bearer" }).success,
    ).toBe(true);
  });

  it("rejects a zero or negative lifetime", () => {
    for (const expires_in of [0, -1, 1.5]) {
      expect(tokenResponseSchema.safeParse({ ...production, expires_in }).success).toBe(false);
    }
  });
});
