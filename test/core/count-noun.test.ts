import { describe, expect, it } from "vitest";
import { countNoun } from "../../core/index.ts";

describe("countNoun", () => {
  it("says one thing in the singular and any other count in the plural", () => {
    expect(countNoun(1, "use")).toBe("1 use");
    expect(countNoun(0, "use")).toBe("0 uses");
    expect(countNoun(2, "cycle")).toBe("2 cycles");
    expect(countNoun(1, "early expiry", "early expiries")).toBe("1 early expiry");
    expect(countNoun(3, "early expiry", "early expiries")).toBe("3 early expiries");
  });
});
