import { describe, expect, it } from "vitest";
import { FAIL_ON_CHOICES, failsRun } from "../../../reporting/compare/index.ts";

describe("failsRun", () => {
  it("fails a run on REGRESSED whatever --fail-on says", () => {
    expect(failsRun("REGRESSED")).toBe(true);
    expect(failsRun("REGRESSED", "inconclusive")).toBe(true);
  });

  it("fails on INCONCLUSIVE only when asked to", () => {
    expect(failsRun("INCONCLUSIVE")).toBe(false);
    expect(failsRun("INCONCLUSIVE", "regressed")).toBe(false);
    expect(failsRun("INCONCLUSIVE", "inconclusive")).toBe(true);
  });

  it("never fails on UNCHANGED, IMPROVED or WAIVED", () => {
    for (const status of ["UNCHANGED", "IMPROVED", "WAIVED"] as const) {
      for (const failOn of FAIL_ON_CHOICES)
        expect(failsRun(status, failOn), `${status} ${failOn}`).toBe(false);
    }
  });
});
