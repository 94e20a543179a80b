import { format, inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Secret } from "../../transport/index.ts";

const VALUE = "s3cret-value-9d2f";

describe("Secret", () => {
  it("gives its value only when revealed", () => {
    expect(new Secret(VALUE).reveal()).toBe(VALUE);
    expect(new Secret("").reveal()).toBe("");
  });

  it("prints as [redacted] in a string, JSON, util.inspect and console formatting", () => {
    const secret = new Secret(VALUE);
    const held = { clientId: "client", clientSecret: secret };
    const shown = [
      String(secret),
      `${secret}`,
      JSON.stringify(held),
      inspect(held, { depth: 5 }),
      inspect(secret, { showHidden: true }),
      // console.log formats its arguments with util.format.
      format("%s %o %O %j", secret, held, held, held),
    ];
    for (const text of shown) expect(text).not.toContain(VALUE);
    expect(JSON.parse(JSON.stringify(held))).toEqual({ clientId: "client", clientSecret: "[redacted]" });
    expect(inspect(secret)).toBe("Secret([redacted])");
  });
});
