import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLifetime, lifetimeProblem, tokenResponseSchema } from "../../domain/index.ts";

const quote = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

describe("the token lifetime rule", () => {
  it.each([1, 2, 300, 86_400, Number.MAX_SAFE_INTEGER])("%j is a lifetime", (value) => {
    expect(isLifetime(value)).toBe(true);
    expect(lifetimeProblem({ expires_in: value }, quote)).toBeUndefined();
  });

  it.each([
    [0.5, "expires_in is 0.5, not a positive whole number of seconds"],
    [1.5, "expires_in is 1.5, not a positive whole number of seconds"],
    [0, "expires_in is 0, not a positive whole number of seconds"],
    [-300, "expires_in is -300, not a positive whole number of seconds"],
    [2 ** 53, "expires_in is 9007199254740992, not a positive whole number of seconds"],
    ["300", 'expires_in is a string ("300"), not a number of seconds'],
    [null, "expires_in is null, not a number of seconds"],
    [true, "expires_in is a boolean true, not a number of seconds"],
    [[300], "expires_in is an array, not a number of seconds"],
  ])("%j is none, said as the target's fault", (value, said) => {
    expect(isLifetime(value)).toBe(false);
    expect(lifetimeProblem({ expires_in: value }, quote)).toBe(said);
  });

  it("calls an absent expires_in absent", () => {
    expect(lifetimeProblem({ access_token: "t" }, quote)).toBe(
      "expires_in (the lifetime in seconds) is absent",
    );
  });

  // The schema documents the rule (JSON Schema, OpenAPI); the function applies it. They must never disagree.
  it("agrees with the token response schema's expires_in on any value", () => {
    const field = tokenResponseSchema.shape.expires_in;
    const special = fc.constantFrom(
      0,
      -0,
      0.5,
      1,
      1.0000001,
      2 ** 53,
      2 ** 53 - 1,
      Number.NaN,
      Infinity,
      -1,
      "1",
    );
    fc.assert(
      fc.property(fc.oneof(special, fc.double(), fc.integer(), fc.anything()), (value) => {
        expect(isLifetime(value)).toBe(field.safeParse(value).success);
      }),
      { numRuns: 2_000 },
    );
  });
});
