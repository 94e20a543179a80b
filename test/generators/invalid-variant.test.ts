import { describe, expect, it } from "vitest";
import { isRejectedAt } from "../../generators/index.ts";

describe("isRejectedAt", () => {
  it("a variant is rejected at the strictness it violates and at every stricter one, never at a looser one", () => {
    expect(
      ["complete", "production", "lenient"].map((s) => isRejectedAt({ violates: "lenient" }, s as never)),
    ).toEqual([true, true, true]);
    expect(isRejectedAt({ violates: "production" }, "complete")).toBe(true);
    expect(isRejectedAt({ violates: "production" }, "production")).toBe(true);
    expect(isRejectedAt({ violates: "production" }, "lenient")).toBe(false);
    expect(isRejectedAt({ violates: "complete" }, "complete")).toBe(true);
    expect(isRejectedAt({ violates: "complete" }, "production")).toBe(false);
    expect(isRejectedAt({ violates: "complete" }, "lenient")).toBe(false);
  });
});
