import { describe, expect, it } from "vitest";
import type { ScenarioName } from "../../../load/index.ts";
import {
  defaultThresholds,
  executionSegment,
  executionSegmentSequence,
  planScenario,
  SCENARIO_NAMES,
  segmentShare,
  segmentWork,
} from "../../../load/index.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** A run big enough that every instance count below gets a VU. */
const config = (scenario: ScenarioName, instances: number) =>
  runConfig(scenario, {
    rate: 37,
    vus: 7,
    instances,
    ...(scenario === "idle-gap" ? { durationSeconds: undefined } : { durationSeconds: 23 }),
  });

describe("execution segments", () => {
  it("names k6's segments and sequence", () => {
    expect(executionSegmentSequence(3)).toBe("0,1/3,2/3,1");
    expect([0, 1, 2].map((i) => executionSegment(i, 3))).toEqual(["0:1/3", "1/3:2/3", "2/3:1"]);
    expect(executionSegment(1, 4)).toBe("1/4:1/2");
    expect(executionSegmentSequence(1)).toBe("0,1");
  });

  it("splits integers the way k6's striping does: the shares add up, and differ by one at most", () => {
    for (let count = 1; count <= 7; count += 1) {
      for (let value = 0; value <= 50; value += 1) {
        const shares = Array.from({ length: count }, (_, i) => segmentShare(value, i, count));
        expect(sum(shares)).toBe(value);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }
    }
    // k6's own example (lib/execution_segment.go): 5 units over three equal segments → 2, 2, 1.
    expect([0, 1, 2].map((i) => segmentShare(5, i, 3))).toEqual([2, 2, 1]);
  });

  for (const scenario of SCENARIO_NAMES) {
    it(`${scenario}: the plans of n segments add up to the plan of one run`, () => {
      const single = planScenario(config(scenario, 1));
      const one = segmentWork(single, 0, 1);
      for (let count = 1; count <= 7; count += 1) {
        const plan = planScenario(config(scenario, count));
        // Planning for n instances changes no work: same iterations, VUs, rate, duration and idle-gap plan.
        expect(plan.plannedIterations).toBe(single.plannedIterations);
        expect(plan.idleGap).toEqual(single.idleGap);
        expect(defaultThresholds(config(scenario, count), plan)).toEqual(
          defaultThresholds(config(scenario, 1), single),
        );
        for (const key of [
          "rate",
          "startRate",
          "stages",
          "duration",
          "vus",
          "iterations",
          "preAllocatedVUs",
        ]) {
          expect(plan.executor[key]).toEqual(single.executor[key]);
        }
        const shares = Array.from({ length: count }, (_, i) => segmentWork(plan, i, count));
        expect(sum(shares.map((s) => s.vus))).toBe(one.vus);
        expect(sum(shares.map((s) => s.rateShare))).toBeCloseTo(one.rateShare, 12);
        if (one.iterations !== undefined) {
          expect(sum(shares.map((s) => s.iterations ?? Number.NaN))).toBe(one.iterations);
        }
        // maxVUs may only grow to a multiple of n (an equal rate split), never shrink.
        expect(sum(shares.map((s) => s.maxVus))).toBeGreaterThanOrEqual(one.maxVus);
        expect(sum(shares.map((s) => s.maxVus))).toBeLessThan(one.maxVus + count);
        for (const share of shares) expect(share.vus).toBeGreaterThanOrEqual(1);
      }
    });
  }

  it("idle-gap: every instance runs whole short+long cycles, so each sees both gaps", () => {
    for (let count = 1; count <= 7; count += 1) {
      const plan = planScenario(config("idle-gap", count));
      const perVu = plan.executor.iterations as number;
      expect(perVu).toBe(1 + (plan.idleGap?.cycles ?? 0) * ((plan.idleGap?.shortGaps ?? 0) + 2));
      expect(perVu).toBeGreaterThanOrEqual(3);
      for (let i = 0; i < count; i += 1) {
        const share = segmentWork(plan, i, count);
        expect(share.vus).toBeGreaterThanOrEqual(1);
        expect(share.iterations).toBe(share.vus * perVu);
      }
    }
  });

  it("refuses a plan whose maxVUs would split the rate unevenly", () => {
    const plan = planScenario(config("sustained", 1));
    expect(() => segmentWork(plan, 0, 4)).toThrow(/not a multiple of 4 instances/);
  });
});
