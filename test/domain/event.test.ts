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
