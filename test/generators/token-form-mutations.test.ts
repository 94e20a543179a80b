import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FormField } from "../../generators/index.ts";
import { renderTokenForm, tokenFormPlanArbitrary } from "../../generators/index.ts";

const FIELDS: FormField[] = [
  ["client_id", "my-client"],
  ["client_secret", "s3cr_t-value.x"],
  ["grant_type", "client_credentials"],
  ["audience", "https://api.example.com"],
];
const REQUIRED = ["grant_type", "client_id", "client_secret"];

describe("renderTokenForm", () => {
  it("keeps the valid form's meaning for an independent decoder unless it says the request is to be refused", () => {
    fc.assert(
      fc.property(tokenFormPlanArbitrary, (plan) => {
        const input = renderTokenForm(plan, FIELDS);
        const decoded = new URLSearchParams(input.body);
        expect(input.contentType.toLowerCase()).toMatch(/^application\/x-www-form-urlencoded/);
        const repeated = [...new Set(decoded.keys())].filter((name) => decoded.getAll(name).length > 1);
        const emptyRequired = REQUIRED.filter((name) => decoded.get(name) === "");
        if (input.expect === "refused") {
          expect(repeated.length + emptyRequired.length, input.what).toBeGreaterThan(0);
        } else {
          expect(repeated, input.what).toEqual([]);
          for (const [name, value] of FIELDS) {
            const sent = decoded.get(name);
            expect(
              sent === value || (sent === "" && !REQUIRED.includes(name)),
              `${name} in ${input.body}`,
            ).toBe(true);
          }
        }
      }),
      { numRuns: 500, seed: 1 },
    );
  });

  it("never re-encodes the client secret: it is sent as URLSearchParams writes it, which redaction knows", () => {
    const written = `=${new URLSearchParams([["", "s3cr_t-value.x"]]).toString().slice(1)}`;
    for (const plan of fc.sample(tokenFormPlanArbitrary, { seed: 2, numRuns: 300 })) {
      const input = renderTokenForm(plan, FIELDS);
      if (new URLSearchParams(input.body).get("client_secret") === "s3cr_t-value.x")
        expect(input.body).toContain(written);
    }
  });

  it("leaves out a change to a parameter the form does not carry (client credentials under HTTP Basic)", () => {
    const basic: FormField[] = [["grant_type", "client_credentials"]];
    const input = renderTokenForm(
      {
        order: [0],
        change: { kind: "empty", name: "client_secret" },
        encoding: {
          percentUnreserved: false,
          lowercaseHex: false,
          percentSpace: false,
          contentType: "plain",
        },
      },
      basic,
    );
    expect(input).toMatchObject({ body: "grant_type=client_credentials", expect: "token" });
  });

  it("writes odd but equivalent encodings: %5F for _, lower-case escapes, a charset", () => {
    const input = renderTokenForm(
      {
        order: [0, 1, 2, 3],
        change: { kind: "none" },
        encoding: { percentUnreserved: true, lowercaseHex: true, percentSpace: true, contentType: "charset" },
      },
      FIELDS,
    );
    expect(input.body).toContain("client%5fid=my%2dclient");
    expect(input.body).toContain("client%5fsecret=s3cr_t-value.x");
    expect(input.contentType).toBe("application/x-www-form-urlencoded; charset=UTF-8");
    expect(input.expect).toBe("token");
  });
});
