import { describe, expect, it } from "vitest";
import { judgeShift } from "../../../reporting/compare/judge-shift.ts";
import { normalQuantile } from "../../../reporting/compare/normal-distribution.ts";
import { sampleOf, shiftTest as weightedShiftTest } from "../../../reporting/compare/shift-test.ts";
import { seededUniform } from "../../support/seeded-uniform.ts";

/** Skewed, heavy-tailed latencies (log-normal around `medianMs`), as per-window figures of a run look. */
function latencies(seed: number, count: number, medianMs: number, shiftMs = 0): number[] {
  const random = seededUniform(seed);
  return Array.from({ length: count }, () => {
    const z = normalQuantile(Math.min(1 - 1e-12, Math.max(1e-12, random())));
    return medianMs * Math.exp(0.5 * z) + shiftMs;
  });
}

const shiftTest = (base: readonly number[], candidate: readonly number[]) =>
  weightedShiftTest(sampleOf(base), sampleOf(candidate));

const LATENCY_FLOOR = { relative: 0.2, absolute: 5 };
const ms = (value: number) => `${value.toFixed(1)} ms`;

describe("shiftTest", () => {
  it("finds the Hodges-Lehmann shift of a known difference inside its interval", () => {
    const base = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const shifted = base.map((v) => v + 30);
    const result = shiftTest(base, shifted);
    expect(result?.estimate).toBe(30);
    expect(result?.low).toBeGreaterThan(20);
    expect(result?.high).toBeLessThanOrEqual(39);
    expect(result?.pValue).toBeLessThan(0.001);
  });

  it("gives no interval, so no verdict, for fewer than five observations on a side", () => {
    expect(shiftTest([1, 2, 3, 4], [1, 2, 3, 4, 5])).toBeUndefined();
    expect(judgeShift(undefined, 2, LATENCY_FLOOR, "higher", ms).status).toBe("INCONCLUSIVE");
  });

  it("calls +30 ms REGRESSED and −30 ms IMPROVED on seeded skewed samples of 20 windows", () => {
    for (let seed = 1; seed <= 50; seed += 1) {
      const base = latencies(seed, 20, 3);
      expect(
        judgeShift(shiftTest(base, latencies(seed + 1000, 20, 3, 30)), 3, LATENCY_FLOOR, "higher", ms).status,
      ).toBe("REGRESSED");
      const slow = latencies(seed, 20, 3, 30);
      expect(
        judgeShift(shiftTest(slow, latencies(seed + 1000, 20, 3)), 33, LATENCY_FLOOR, "higher", ms).status,
      ).toBe("IMPROVED");
    }
  });

  it("a shift inside the margin is UNCHANGED even when significant: it does not matter", () => {
    const base = latencies(7, 200, 3);
    const verdict = judgeShift(shiftTest(base, latencies(8, 200, 3, 1)), 3, LATENCY_FLOOR, "higher", ms);
    expect(verdict.status).toBe("UNCHANGED");
  });

  it("raises no false alarm on 1000 seeded pairs of equal distributions (the U test alone: about 5 %)", () => {
    let alarms = 0;
    let significant = 0;
    let unchanged = 0;
    for (let seed = 0; seed < 1000; seed += 1) {
      const base = latencies(2 * seed + 1, 20, 3);
      const candidate = latencies(2 * seed + 2, 20, 3);
      const shift = shiftTest(base, candidate);
      if ((shift?.pValue ?? 1) < 0.05) significant += 1;
      const { status } = judgeShift(shift, 3, LATENCY_FLOOR, "higher", ms);
      if (status === "REGRESSED" || status === "IMPROVED") alarms += 1;
      if (status === "UNCHANGED") unchanged += 1;
    }
    expect(alarms).toBe(0);
    // The test itself is calibrated: its false positives at α = 0.05 stay near 5 % (binomial 1000 × 0.05 ± 3σ).
    expect(significant).toBeGreaterThan(20);
    expect(significant).toBeLessThan(80);
    // And the margin is not so wide that every pair is merely undecided.
    expect(unchanged).toBeGreaterThan(900);
  });

  it("reads a lower accepted rate as the worse direction", () => {
    const base = [100, 101, 99, 100, 100, 102, 98, 100];
    const fewer = base.map((v) => v - 50);
    expect(
      judgeShift(shiftTest(base, fewer), 100, { relative: 0.05, absolute: 0 }, "lower", String).status,
    ).toBe("REGRESSED");
  });
});
