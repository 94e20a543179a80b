import { describe, expect, it } from "vitest";
import { judgeShift } from "../../../reporting/compare/judge-shift.ts";
import type { ShiftEstimate } from "../../../reporting/compare/shift-test.ts";

const shift = (estimate: number, low: number, high: number): ShiftEstimate => ({
  baselineCount: 30,
  candidateCount: 30,
  estimate,
  low,
  high,
  pValue: 0.01,
  confidence: 0.95,
});
const ms = (v: number) => `${v} ms`;
// Baseline 100 ms: 10 % is 10 ms, above the 2 ms floor, so the change that matters is 10 ms.
const FLOOR = { relative: 0.1, absolute: 2 };

describe("judgeShift", () => {
  it("takes the larger of the relative and the absolute change as the margin", () => {
    expect(judgeShift(shift(0, -1, 1), 100, FLOOR, "higher", ms).margin).toBe(10);
    expect(judgeShift(shift(0, -1, 1), 5, FLOOR, "higher", ms).margin).toBe(2);
    expect(judgeShift(shift(0, -1, 1), -100, FLOOR, "higher", ms).margin).toBe(10);
  });

  it("calls REGRESSED only when the whole interval lies at or beyond the margin on the worse side", () => {
    expect(judgeShift(shift(15, 10, 20), 100, FLOOR, "higher", ms).status).toBe("REGRESSED");
    expect(judgeShift(shift(15, 9.9, 20), 100, FLOOR, "higher", ms).status).toBe("INCONCLUSIVE");
  });

  it("calls IMPROVED only when the whole interval lies at or beyond the margin on the better side", () => {
    expect(judgeShift(shift(-15, -20, -10), 100, FLOOR, "higher", ms).status).toBe("IMPROVED");
    expect(judgeShift(shift(-15, -20, -9.9), 100, FLOOR, "higher", ms).status).toBe("INCONCLUSIVE");
  });

  it("calls UNCHANGED only when the interval lies strictly within the margin", () => {
    expect(judgeShift(shift(0, -9.9, 9.9), 100, FLOOR, "higher", ms).status).toBe("UNCHANGED");
    expect(judgeShift(shift(0, -10, 9.9), 100, FLOOR, "higher", ms).status).toBe("INCONCLUSIVE");
  });

  it("turns the sides round for a figure that is worse lower, such as events accepted", () => {
    expect(judgeShift(shift(-15, -20, -10), 100, FLOOR, "lower", ms).status).toBe("REGRESSED");
    expect(judgeShift(shift(15, 10, 20), 100, FLOOR, "lower", ms).status).toBe("IMPROVED");
  });

  it("is INCONCLUSIVE without an interval, saying why", () => {
    expect(judgeShift(undefined, 100, FLOOR, "higher", ms)).toEqual({
      status: "INCONCLUSIVE",
      margin: 10,
      reason: "too few samples for a confidence interval",
    });
  });

  it("gives the shift, its interval and the margin in the figure's own format", () => {
    expect(judgeShift(shift(15, 10, 20), 100, FLOOR, "higher", ms).reason).toBe(
      "shift 15 ms (95 % CI 10 ms to 20 ms), change that matters 10 ms",
    );
    expect(judgeShift(shift(5, -1, 12), 100, FLOOR, "higher", ms).reason).toBe(
      "shift 5 ms (95 % CI -1 ms to 12 ms), change that matters 10 ms: the interval reaches past the margin",
    );
  });
});
