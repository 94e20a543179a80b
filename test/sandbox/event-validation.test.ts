import { describe, expect, it } from "vitest";
import { createEventValidator, invalidEventBody, referenceOf } from "../../sandbox/event-validation.ts";

describe("event validation", () => {
  const validate = createEventValidator("production");
  const valid = {
    type: "checkout",
    customer: { email: "a@example.com" },
    channel: { id: "chl-1" },
    transaction: { reference: "r-1" },
  };

  it("accepts a valid event and reads its reference", () => {
    expect(validate(valid)).toEqual({ ok: true, reference: "r-1" });
    expect(referenceOf({ transaction: { reference: 7 } })).toBeUndefined();
  });

  it("lists every problem with its dotted path", () => {
    const check = validate({ ...valid, type: 1, products: "x", customer: { email: ["a"] } });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.map((problem) => problem.path)).toEqual(["type", "customer.email"]);
    const nested = createEventValidator("lenient")({
      customer: { email: "bad" },
      transaction: { date: "yesterday" },
    });
    expect(nested.ok ? [] : nested.problems.map((problem) => problem.path)).toEqual([
      "customer.email",
      "transaction.date",
    ]);
  });

  it("builds production's 400 body: the first problem in Message, all of them in Errors", () => {
    const body = JSON.parse(
      invalidEventBody([
        { path: "", message: "Expected object" },
        { path: "a.b", message: "m" },
      ]),
    );
    expect(body).toEqual({
      Message: "Invalid request: body: Expected object",
      Errors: [
        { path: "", message: "Expected object" },
        { path: "a.b", message: "m" },
      ],
    });
  });
});
