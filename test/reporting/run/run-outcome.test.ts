import { describe, expect, it } from "vitest";
import type { PartVerdict } from "../../../reporting/run/index.ts";
import { combineVerdicts, partVerdictOf, RUN_VERDICT_TITLE } from "../../../reporting/run/index.ts";

const parts = (...verdicts: PartVerdict[]) => verdicts.map((verdict) => ({ verdict }));

describe("partVerdictOf", () => {
  it("reads a command's exit code: 0 passed, 1 failed, anything else undecided", () => {
    expect(partVerdictOf(0)).toBe("passed");
    expect(partVerdictOf(1)).toBe("failed");
    expect(partVerdictOf(2)).toBe("undecided");
    expect(partVerdictOf(3)).toBe("undecided");
    expect(partVerdictOf(-1)).toBe("undecided");
    expect(partVerdictOf(130)).toBe("undecided");
  });

  it("is aborted when the run was interrupted while the part ran, whatever its exit code", () => {
    expect(partVerdictOf(0, true)).toBe("aborted");
    expect(partVerdictOf(1, true)).toBe("aborted");
  });
});

describe("combineVerdicts", () => {
  it("passes a run only when every part passed", () => {
    expect(combineVerdicts(parts("passed", "passed"))).toBe("passed");
    expect(combineVerdicts(parts("passed", "undecided"))).toBe("undecided");
  });

  it("lets a failure win over an undecided part, so an error never hides a failure", () => {
    expect(combineVerdicts(parts("undecided", "failed", "passed"))).toBe("failed");
  });

  it("is aborted when a part was aborted or the run interrupted, even with a failure", () => {
    expect(combineVerdicts(parts("failed", "aborted"))).toBe("aborted");
    expect(combineVerdicts(parts("passed", "failed"), true)).toBe("aborted");
  });

  it("cannot decide a run with no part, or with a part that never ran", () => {
    expect(combineVerdicts([])).toBe("undecided");
    expect(combineVerdicts(parts("passed", "skipped"))).toBe("undecided");
  });
});

describe("RUN_VERDICT_TITLE", () => {
  it("writes each verdict as the console and run.json say it", () => {
    expect(RUN_VERDICT_TITLE).toEqual({
      passed: "PASSED",
      failed: "FAILED",
      undecided: "COULD NOT DECIDE",
      aborted: "ABORTED",
    });
  });
});
