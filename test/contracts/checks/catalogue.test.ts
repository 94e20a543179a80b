import { describe, expect, it } from "vitest";
import { ALL_CHECKS, selectChecks, unknownSelectors } from "../../../contracts/index.ts";

describe("the check catalogue", () => {
  it("gives every check a unique area-prefixed id, a rule and a level", () => {
    expect(new Set(ALL_CHECKS.map((check) => check.id)).size).toBe(ALL_CHECKS.length);
    for (const check of ALL_CHECKS) {
      expect(check.id.startsWith(`${check.area}.`)).toBe(true);
      expect(check.rule).not.toBe("");
    }
  });

  it("keeps the waiting lifetime checks out of the fast profile", () => {
    expect(selectChecks("fast").some((check) => check.area === "lifetime")).toBe(false);
    expect(selectChecks("full").filter((check) => check.area === "lifetime").length).toBe(4);
  });

  it("selects by id or area, and names selectors that match nothing", () => {
    expect(selectChecks("fast", ["bearer", "token.issued"]).map((check) => check.id)).toContain(
      "token.issued",
    );
    expect(selectChecks("fast", ["bearer"]).every((check) => check.area === "bearer")).toBe(true);
    expect(unknownSelectors(["bearer", "token.nope", "lifetime.sliding"])).toEqual(["token.nope"]);
  });
});
