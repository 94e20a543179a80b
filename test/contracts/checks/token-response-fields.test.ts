import { exampleFieldProblems, ruleFieldProblems } from "../../../contracts/checks/token-response-fields.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

/** A quote that makes its input visible: JSON for anything that is not a string. */
const quote = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

const SPEC_EXAMPLE = {
  access_token: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
  expires_in: 300,
  refresh_expires_in: 0,
  token_type: "Bearer",
  "not-before-policy": 0,
  scope: "profile email",
};

describe("ruleFieldProblems", () => {
  it("finds none in the spec's example, nor with token_type in another case", () => {
    expect(ruleFieldProblems(SPEC_EXAMPLE, quote)).toEqual([]);
    expect(ruleFieldProblems({ ...SPEC_EXAMPLE, token_type: "bearer" }, quote)).toEqual([]);
  });

  it("names each absent rule field", () => {
    expect(ruleFieldProblems({}, quote)).toEqual([
      "access_token is absent",
      "token_type (Bearer) is absent",
      expect.stringContaining("expires_in"),
    ]);
  });

  it("says what a wrong access_token or token_type is instead", () => {
    expect(ruleFieldProblems({ ...SPEC_EXAMPLE, access_token: "" }, quote)).toEqual([
      "access_token is an empty string, not a token",
    ]);
    expect(ruleFieldProblems({ ...SPEC_EXAMPLE, access_token: 12 }, quote)).toEqual([
      "access_token is the number 12, not a token",
    ]);
    expect(ruleFieldProblems({ ...SPEC_EXAMPLE, token_type: "mac" }, quote)).toEqual([
      'token_type is "mac", not Bearer (any case)',
    ]);
    expect(ruleFieldProblems({ ...SPEC_EXAMPLE, token_type: null }, quote)).toEqual([
      "token_type is null, not Bearer (any case)",
    ]);
  });

  it("reports a string expires_in as the rule's problem", () => {
    const [problem] = ruleFieldProblems({ ...SPEC_EXAMPLE, expires_in: "300" }, quote);
    expect(problem).toBe('expires_in is a string ("300"), not a number of seconds');
  });

  it("quotes a target's text only through the quote it is given", () => {
    const [problem] = ruleFieldProblems({ ...SPEC_EXAMPLE, token_type: "\u001b[2Jmac" }, (value) =>
      JSON.stringify(value).slice(1, -1),
    );
    expect(problem).toBe('token_type is "\\u001b[2Jmac", not Bearer (any case)');
  });
});

describe("exampleFieldProblems", () => {
  it("finds none in the spec's example", () => {
    expect(exampleFieldProblems(SPEC_EXAMPLE, quote)).toEqual({ absent: [], wrong: [] });
  });

  it("lists absent example fields and wrongly typed ones apart", () => {
    const { refresh_expires_in: _absent, ...body } = SPEC_EXAMPLE;
    expect(exampleFieldProblems({ ...body, "not-before-policy": -1 }, quote)).toEqual({
      absent: ["refresh_expires_in"],
      wrong: ["not-before-policy is the number -1, not a whole number ≥ 0"],
    });
    expect(exampleFieldProblems({ ...SPEC_EXAMPLE, refresh_expires_in: "0" }, quote).wrong).toEqual([
      'refresh_expires_in is a string ("0"), not a whole number ≥ 0',
    ]);
  });
});
