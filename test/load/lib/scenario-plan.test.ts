import { describe, expect, it } from "vitest";
import {
  defaultMarginSeconds,
  gapBefore,
  planIdleGaps,
  planScenario,
  SPIKE_FACTOR,
  WARM_UP_EXEC,
  WARM_UP_SECONDS,
  WARM_UP_SLOTS,
  warmUpDelaySeconds,
} from "../../../load/index.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

describe("planScenario", () => {
  it("runs sustained and soak as a constant arrival rate (open model) with headroom in VUs", () => {
    for (const scenario of ["sustained", "soak"] as const) {
      const plan = planScenario(runConfig(scenario, { rate: 25, durationSeconds: 40, vus: 4 }));
      expect(plan.executor).toMatchObject({
        executor: "constant-arrival-rate",
        rate: 25,
        timeUnit: "1s",
        duration: "40000ms",
        preAllocatedVUs: 4,
        maxVUs: 8,
      });
      expect(plan.plannedIterations).toBe(1000);
      expect(plan.expectedSeconds).toBe(WARM_UP_SECONDS + 40);
    }
  });

  it("warms every pre-allocated VU's token up before a constant rate starts, in time for k6 to reuse the VUs", () => {
    const plan = planScenario(runConfig("sustained", { rate: 25, durationSeconds: 40, vus: 4 }));
    expect(plan.warmUp).toEqual({
      executor: "per-vu-iterations",
      exec: WARM_UP_EXEC,
      vus: 4,
      iterations: 1,
      maxDuration: `${WARM_UP_SECONDS * 1000}ms`,
      gracefulStop: "0s",
    });
    expect(plan.executor.startTime).toBe(`${WARM_UP_SECONDS * 1000}ms`);
    expect(plan.warmUpSeconds).toBe(WARM_UP_SECONDS);
    expect(plan.maxSeconds).toBe(WARM_UP_SECONDS + 40 + 10);
  });

  it("spreads the warm-up token requests over the first half of the warm-up, in slots of VUs", () => {
    const delays = Array.from({ length: 300 }, (_, i) => warmUpDelaySeconds(i + 1));
    expect(delays[0]).toBe(0);
    expect(Math.max(...delays)).toBeLessThan(WARM_UP_SECONDS / 2);
    expect(new Set(delays).size).toBe(WARM_UP_SLOTS);
    // Equal slots: 300 VUs in 20 slots of 15.
    expect(delays.filter((d) => d === delays[1]).length).toBe(300 / WARM_UP_SLOTS);
  });

  it("warms nothing up for a client that fetches a token per iteration, nor for the ramping and closed scenarios", () => {
    const perIteration = planScenario(
      runConfig("sustained", { rate: 25, durationSeconds: 40, clientModel: "token-per-iteration" }),
    );
    expect(perIteration.warmUp).toBeUndefined();
    expect(perIteration.warmUpSeconds).toBe(0);
    expect(perIteration.executor.startTime).toBeUndefined();
    expect(perIteration.expectedSeconds).toBe(40);
    for (const scenario of ["ramp", "spike", "idle-gap", "token-storm"] as const) {
      expect(planScenario(runConfig(scenario, { rate: 10, durationSeconds: 20 })).warmUp).toBeUndefined();
    }
  });

  it("counts a fractional rate per minute, since arrival-rate executors take whole iterations", () => {
    const plan = planScenario(runConfig("sustained", { rate: 0.5, durationSeconds: 60 }));
    expect(plan.executor).toMatchObject({ rate: 30, timeUnit: "1m" });
    expect(plan.plannedIterations).toBe(30);
  });

  it("ramps up to the peak, holds and ramps down", () => {
    const plan = planScenario(runConfig("ramp", { rate: 40, durationSeconds: 100 }));
    expect(plan.executor).toMatchObject({
      executor: "ramping-arrival-rate",
      startRate: 1,
      stages: [
        { duration: "50000ms", target: 40 },
        { duration: "30000ms", target: 40 },
        { duration: "20000ms", target: 0 },
      ],
    });
    // (1 + 40) / 2 × 50 + 40 × 30 + 40 / 2 × 20
    expect(plan.plannedIterations).toBe(1025 + 1200 + 400);
  });

  it("spikes to SPIKE_FACTOR times the base rate and back, with VUs for the peak", () => {
    const plan = planScenario(runConfig("spike", { rate: 10, durationSeconds: 100, vus: 5 }));
    const stages = (plan.executor as unknown as { stages: Array<{ target: number }> }).stages.map(
      (s) => s.target,
    );
    expect(stages).toEqual([10, 10 * SPIKE_FACTOR, 10 * SPIKE_FACTOR, 10, 10]);
    expect(plan.executor).toMatchObject({ startRate: 10, maxVUs: 5 * (SPIKE_FACTOR + 1) });
  });

  it("starts token-storm's VUs all at once", () => {
    const plan = planScenario(runConfig("token-storm", { vus: 50, durationSeconds: 10 }));
    expect(plan.executor).toMatchObject({ executor: "constant-vus", vus: 50, duration: "10000ms" });
    expect(plan.plannedIterations).toBeUndefined();
  });

  it("runs idle-gap as a closed model with a duration cap", () => {
    const plan = planScenario(runConfig("idle-gap", { vus: 2, expiresInSeconds: 2, marginSeconds: 0.2 }));
    expect(plan.executor).toMatchObject({ executor: "per-vu-iterations", vus: 2, iterations: 11 });
    expect(plan.maxSeconds).toBeGreaterThan(plan.expectedSeconds);
  });

  it.each(["cache-until-expiry", "token-per-iteration"] as const)(
    "refuses idle-gap with a client that replaces its token on its own (%s)",
    (clientModel) => {
      expect(() => planScenario(runConfig("idle-gap", { clientModel }))).toThrow(
        `idle-gap holds one token through each cycle of gaps; --client-model ${clientModel} replaces it on its own`,
      );
    },
  );

  it("refuses to plan idle-gap without expires_in", () => {
    expect(() => planScenario(runConfig("idle-gap", { expiresInSeconds: undefined }))).toThrow(
      /EH_EXPIRES_IN_S/,
    );
  });
});

describe("planIdleGaps", () => {
  it.each([1, 2, 3, 5, 60, 300, 3600])(
    "holds one token through a gap over half of expires_in, use past expires_in, and a long gap (%is)",
    (expiresIn) => {
      const margin = defaultMarginSeconds(expiresIn);
      const plan = planIdleGaps(expiresIn, margin, undefined);
      // The mid gap is at least a margin beyond half of expires_in (an early expiry refuses the token) and two
      // margins short of expires_in (a sliding one keeps it, and a 401 there is judged a violation).
      expect(plan.midGapSeconds - margin).toBeGreaterThan(expiresIn / 2);
      expect(plan.midGapSeconds + 2 * margin).toBeLessThanOrEqual(expiresIn);
      // Short gaps are far from expires_in − margin, where a sliding client would refresh on its own.
      expect(plan.shortGapSeconds + 2 * margin).toBeLessThan(expiresIn - margin);
      // With the mid gap, the short gaps carry the token past expires_in + margin after its issue, by one more gap.
      expect(plan.midGapSeconds + plan.shortGaps * plan.shortGapSeconds).toBeGreaterThanOrEqual(
        expiresIn + margin + plan.shortGapSeconds - 0.001,
      );
      expect(plan.longGapSeconds).toBeGreaterThanOrEqual(expiresIn + margin + 1);
      expect(plan.cycles).toBe(2);
      expect(plan.iterationsPerVu).toBe(1 + 2 * (plan.shortGaps + 2));
    },
  );

  it("scales with expires_in: a cycle takes about 3 × expires_in (2 s: 6.1 s; 300 s: 14 min; 3600 s: 2 h 45 min)", () => {
    const cycle = (expiresIn: number) =>
      planIdleGaps(expiresIn, defaultMarginSeconds(expiresIn), 1).idleSecondsPerVu;
    expect(cycle(2)).toBeCloseTo(6.1, 3);
    expect(cycle(300)).toBeCloseTo(840, 3);
    expect(cycle(3600)).toBeCloseTo(9915, 3);
  });

  it("refuses a margin that leaves no room between half of expires_in and expires_in, naming both", () => {
    expect(() => planIdleGaps(2, 0.4, undefined)).toThrow(
      "with expires_in 2s the margin must be at most 0.333s (--expires-margin), got 0.4s",
    );
    expect(planIdleGaps(6, 1, undefined).midGapSeconds).toBe(4);
  });

  it("fits as many cycles as --duration allows, at least one", () => {
    const one = planIdleGaps(2, 0.2, 1);
    expect(one.cycles).toBe(1);
    const plan = planIdleGaps(2, 0.2, 30);
    expect(plan.cycles).toBe(Math.floor(30 / one.idleSecondsPerVu));
    expect(plan.idleSecondsPerVu).toBeCloseTo(plan.cycles * one.idleSecondsPerVu, 3);
  });

  it("waits no gap first, then per cycle a mid gap, the short gaps and a long gap", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => gapBefore(i, 3))).toEqual([
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
    ]);
  });
});
