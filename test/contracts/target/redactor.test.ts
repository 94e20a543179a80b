import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Redactor, Secret } from "../../../contracts/index.ts";

describe("Redactor", () => {
  const secret = "s3cr3t/with+special=chars";
  const redactor = new Redactor().add(secret, "<CLIENT_SECRET>").addBasic("client-1", secret);

  it("hides a secret raw, URL-encoded, form-encoded and inside HTTP Basic credentials", () => {
    const basic = Buffer.from(`client-1:${secret}`).toString("base64");
    const text = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString(),
      `Basic ${basic}`,
    ].join(" | ");
    expect(redactor.redact(text)).toBe(
      "<CLIENT_SECRET> | <CLIENT_SECRET> | s=<CLIENT_SECRET> | Basic <BASIC_CREDENTIALS>",
    );
  });

  it("hides anything shaped like a JWS, even fragments of one", () => {
    expect(
      redactor.redact(
        "Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl and eyJhbGciOiJub25lIn0.eyJ4IjoxfQ.",
      ),
    ).toBe("Bearer <ACCESS_TOKEN> and <ACCESS_TOKEN>");
  });

  it("redacts every string of a JSON value", () => {
    expect(redactor.redactDeep({ a: [secret], b: { c: `x${secret}x` } })).toEqual({
      a: ["<CLIENT_SECRET>"],
      b: { c: "x<CLIENT_SECRET>x" },
    });
  });
});

describe("Secret", () => {
  it("prints as [redacted] however it is printed, unless revealed", () => {
    const secret = new Secret("hunter2-hunter2");
    expect(`${secret}`).toBe("[redacted]");
    expect(JSON.stringify({ secret })).toBe('{"secret":"[redacted]"}');
    expect(inspect({ secret })).not.toContain("hunter2");
    expect(secret.reveal()).toBe("hunter2-hunter2");
  });
});
