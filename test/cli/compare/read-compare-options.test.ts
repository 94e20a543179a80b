import { describe, expect, it } from "vitest";
import { readCompareOptions, readFailOn } from "../../../cli/compare/read-compare-options.ts";
import { UsageError } from "../../../core/index.ts";

function refusal(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("readCompareOptions", () => {
  it("gives the documented defaults when nothing is set", () => {
    expect(readCompareOptions({}, "compare")).toEqual({
      latencyFloor: { relative: 0.2, absolute: 5 },
      failureFloor: { relative: 0.5, absolute: 0.01 },
      acceptedFloor: { relative: 0.05, absolute: 0 },
      capacityFloor: { relative: 0.1, absolute: 1 },
      confidence: 0.95,
      windowSeconds: 60,
      minSamples: 20,
    });
  });

  it("reads percentages as fractions, milliseconds as they are, and the window as a duration", () => {
    const options = readCompareOptions(
      {
        "min-change-pct": "15",
        "min-change-ms": "2.5",
        "min-change-failure-pct": "3",
        "min-change-accepted-pct": "0",
        "min-change-capacity-pct": "250",
        window: "2m",
      },
      "load",
    );
    expect(options.latencyFloor).toEqual({ relative: 0.15, absolute: 2.5 });
    // Only the absolute failure floor is the user's: the relative one keeps its default.
    expect(options.failureFloor).toEqual({ relative: 0.5, absolute: 0.03 });
    expect(options.acceptedFloor).toEqual({ relative: 0, absolute: 0 });
    expect(options.capacityFloor).toEqual({ relative: 2.5, absolute: 1 });
    expect(options.windowSeconds).toBe(120);
    expect(options.confidence).toBe(0.95);
  });

  it("refuses a window shorter than a second or not a duration, naming the command", () => {
    for (const window of ["0s", "500ms", "soon", ""]) {
      const error = refusal(() => readCompareOptions({ window }, "load"));
      expect(error).toMatchObject({
        code: "invalid-value",
        command: "load",
        message: `--window takes a duration of at least 1s, got '${window}'`,
      });
    }
    expect(readCompareOptions({ window: "1s" }, "load").windowSeconds).toBe(1);
  });

  it("refuses a percentage or milliseconds out of range or not a number", () => {
    expect(refusal(() => readCompareOptions({ "min-change-pct": "-1" }, "compare")).message).toMatch(
      /^--min-change-pct /,
    );
    expect(refusal(() => readCompareOptions({ "min-change-capacity-pct": "1001" }, "compare")).code).toBe(
      "invalid-value",
    );
    expect(refusal(() => readCompareOptions({ "min-change-ms": "fast" }, "compare")).message).toMatch(
      /^--min-change-ms /,
    );
  });
});

describe("readFailOn", () => {
  it("is regressed by default, takes inconclusive, and refuses anything else with the choices", () => {
    expect(readFailOn({})).toBe("regressed");
    expect(readFailOn({ "fail-on": "inconclusive" })).toBe("inconclusive");
    const error = refusal(() => readFailOn({ "fail-on": "anything" }));
    expect(error.code).toBe("invalid-value");
    expect(error.message).toContain("regressed");
    expect(error.message).toContain("inconclusive");
  });
});
