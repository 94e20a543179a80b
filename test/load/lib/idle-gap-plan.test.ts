import { describe, expect, it } from "vitest";
import { gapBefore, planIdleGaps } from "../../../load/index.ts";

describe("planIdleGaps", () => {
  it("plans a 60 s token's cycle: mid 42.5 s, three short gaps of 15 s, a long gap of 80 s", () => {
    // E = 60, m = 5: mid 0.75·60 − 2.5; short 60/4; ⌈(65 − 42.5)/15⌉ + 1 = 3 short gaps; long 60 + 5 + 15.
    expect(planIdleGaps(60, 5, undefined)).toEqual({
      shortGapSeconds: 15,
      shortGaps: 3,
      midGapSeconds: 42.5,
      longGapSeconds: 80,
      cycles: 2,
      burst: 3,
      // The first iteration, then per cycle the mid gap's, three short ones' and the long gap's.
      iterationsPerVu: 11,
      idleSecondsPerVu: 335,
    });
  });

  it("makes the long gap at least a second past expires_in + margin for a short-lived token", () => {
    // E = 2, m = 0.2: E/4 is 0.5 s, less than the 1 s floor.
    const plan = planIdleGaps(2, 0.2, undefined);
    expect(plan.longGapSeconds).toBe(3.2);
    expect(plan.midGapSeconds).toBe(1.4);
    expect(plan.shortGaps).toBe(3);
  });

  it("fits whole cycles into the duration, and at least one", () => {
    // A 60 s token's cycle is 167.5 s.
    expect(planIdleGaps(60, 5, 335).cycles).toBe(2);
    expect(planIdleGaps(60, 5, 334.9).cycles).toBe(1);
    expect(planIdleGaps(60, 5, 10).cycles).toBe(1);
    expect(planIdleGaps(60, 5, 1000)).toMatchObject({
      cycles: 5,
      iterationsPerVu: 26,
      idleSecondsPerVu: 837.5,
    });
  });

  it("takes a margin of expires_in / 6 exactly and refuses any more", () => {
    expect(planIdleGaps(6, 1, undefined).midGapSeconds).toBe(4);
    expect(() => planIdleGaps(6, 1.01, undefined)).toThrow(
      "idle-gap needs a gap between expires_in/2 + margin and expires_in − 2 × margin: with expires_in 6s the margin must be at most 1s (--expires-margin), got 1.01s",
    );
  });

  it("rounds every length to the millisecond", () => {
    const plan = planIdleGaps(1, 0.1, undefined);
    for (const seconds of [
      plan.midGapSeconds,
      plan.shortGapSeconds,
      plan.longGapSeconds,
      plan.idleSecondsPerVu,
    ]) {
      expect(Math.abs(seconds * 1000 - Math.round(seconds * 1000))).toBeLessThan(1e-6);
    }
    expect(plan.midGapSeconds).toBe(0.7);
  });
});

describe("gapBefore", () => {
  it("waits no gap first, then per cycle a mid gap, the short gaps and a long gap", () => {
    const gaps = Array.from({ length: 12 }, (_, i) => gapBefore(i, 3));
    expect(gaps).toEqual([
      "none",
      "mid",
      "short",
      "short",
      "short",
      "long",
      "mid",
      "short",
      "short",
      "short",
      "long",
      "mid",
    ]);
  });

  it("waits no gap before an iteration numbered below one, and knows a cycle with no short gaps", () => {
    expect(gapBefore(-3, 3)).toBe("none");
    expect([1, 2, 3, 4].map((i) => gapBefore(i, 0))).toEqual(["mid", "long", "mid", "long"]);
  });
});
