import { describe, expect, it } from "vitest";
import { eventSchemas } from "../../domain/index.ts";

const complete = {
  type: "checkout",
  customer: { email: "ada@example.com" },
  channel: { id: "chl-0f8e1c2a-5b0d-4e1f-9a5c-3d2b1a0f9e8d" },
  transaction: { reference: "ord-1", date: "2026-01-02T03:04:05.678Z" },
  system: "event-api-harness",
  systemVersion: "0.1.0",
};

function issuePaths(strictness: keyof typeof eventSchemas, value: unknown): string[] {
  const result = eventSchemas[strictness].safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.code}`);
}

describe("event schemas", () => {
  it("accept a complete event, with unknown extra fields, at every strictness", () => {
    const withExtras = {
      ...complete,
      metadata: { a: 1 },
      customer: { ...complete.customer, firstName: "Ada" },
    };
    for (const strictness of ["complete", "production", "lenient"] as const) {
      expect(issuePaths(strictness, withExtras)).toEqual([]);
    }
  });

  it("require every documented field only when complete", () => {
    const minimal = {
      type: "checkout",
      customer: { email: "a@example.com" },
      channel: { id: "chl-1" },
      transaction: { reference: "r" },
    };
    expect(issuePaths("production", minimal)).toEqual([]);
    expect(issuePaths("complete", minimal)).toMatchInlineSnapshot(`
      [
        "transaction.date: invalid_type",
        "system: invalid_type",
        "systemVersion: invalid_type",
      ]
    `);
    expect(issuePaths("production", {})).toMatchInlineSnapshot(`
      [
        "type: invalid_type",
        "customer: invalid_type",
        "channel: invalid_type",
        "transaction: invalid_type",
      ]
    `);
    expect(issuePaths("lenient", {})).toEqual([]);
  });

  it("enforce the documented formats even when lenient", () => {
    const bad = {
      channel: { id: "0f8e1c2a" },
      customer: { email: "not-an-email" },
      transaction: { date: "2026-01-02T03:04:05+01:00" },
    };
    expect(issuePaths("lenient", bad)).toMatchInlineSnapshot(`
      [
        "customer.email: invalid_format",
        "channel.id: invalid_format",
        "transaction.date: invalid_format",
      ]
    `);
  });

  it("reject dates without milliseconds, with offsets, or that do not exist", () => {
    for (const date of [
      "2026-01-02T03:04:05Z",
      "2026-01-02T03:04:05.678+00:00",
      "2026-02-30T00:00:00.000Z",
    ]) {
      expect(issuePaths("complete", { ...complete, transaction: { reference: "r", date } })).toEqual([
        "transaction.date: invalid_format",
      ]);
    }
  });
});

describe("event schemas: where the spec is silent, no schema but the generator's own refuses", () => {
  const withChannel = (id: string) => ({ ...complete, channel: { id } });
  it('accept "chl-" alone, which starts with chl-, except in the complete (generator) form', () => {
    expect(issuePaths("production", withChannel("chl-"))).toEqual([]);
    expect(issuePaths("lenient", withChannel("chl-"))).toEqual([]);
    expect(issuePaths("complete", withChannel("chl-"))).toEqual(["channel.id: too_small"]);
    expect(issuePaths("lenient", withChannel("CHL-1"))).toEqual(["channel.id: invalid_format"]);
  });

  it("accept empty strings where the spec names only a string, except in the complete form", () => {
    for (const field of ["system", "systemVersion", "type"] as const) {
      const event = { ...complete, [field]: "" };
      expect(issuePaths("production", event), field).toEqual([]);
      expect(issuePaths("lenient", event), field).toEqual([]);
      expect(issuePaths("complete", event), field).toEqual([`${field}: too_small`]);
    }
    const emptyReference = { ...complete, transaction: { ...complete.transaction, reference: "" } };
    expect(issuePaths("production", emptyReference)).toEqual([]);
    expect(issuePaths("complete", emptyReference)).toEqual(["transaction.reference: too_small"]);
  });
});

describe("event schemas: e-mail addresses as RFC 5322 and RFC 6532 allow them", () => {
  const withEmail = (email: unknown) => ({ ...complete, customer: { email } });
  it.each([
    "ada+orders@example.com",
    "ada.lovelace@example.com",
    "o'brien@example.org",
    "josé.müller@example.net",
    "Δοκιμή@example.com",
    "用户@example.com",
    "a!#$%&*/=?^_`{|}~-@example.com",
    "ada@bücher.example",
  ])("accept %s at every strictness", (email) => {
    for (const strictness of ["complete", "production", "lenient"] as const) {
      expect(issuePaths(strictness, withEmail(email)), strictness).toEqual([]);
    }
  });

  it.each([
    "",
    "ada",
    "ada@",
    "@example.com",
    ".ada@example.com",
    "ada.@example.com",
    "ada..lovelace@example.com",
    "ada lovelace@example.com",
    "Ada <ada@example.com>",
    "ada@example",
    "ada@@example.com",
    "ada\u0000@example.com",
    "ada\u0085@example.com",
    "ada😀@example.com",
  ])("reject %j", (email) => {
    expect(issuePaths("lenient", withEmail(email))).toEqual(["customer.email: invalid_format"]);
  });
});

describe("event schemas: transaction dates", () => {
  const withDate = (date: string) => ({ ...complete, transaction: { reference: "r", date } });
  it.each([
    "2024-02-29T23:59:59.999Z",
    "2000-02-29T00:00:00.000Z",
    "1970-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
  ])("accept %s", (date) => {
    expect(issuePaths("complete", withDate(date))).toEqual([]);
  });

  it.each([
    "2023-02-29T00:00:00.000Z",
    "1900-02-29T00:00:00.000Z",
    "2026-04-31T00:00:00.000Z",
    "2026-01-02T24:00:00.000Z",
    "2026-01-02T03:04:60.000Z",
    "٢٠٢٦-01-02T03:04:05.678Z",
    "2026-01-02T03:04:05.678z",
    "2026-01-02 03:04:05.678Z",
    "+02026-01-02T03:04:05.678Z",
  ])("reject %s", (date) => {
    expect(issuePaths("lenient", withDate(date))).toEqual(["transaction.date: invalid_format"]);
  });
});
