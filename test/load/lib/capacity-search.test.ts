import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  SearchSettings,
  SearchStep,
  SearchStop,
  StepOutcome,
} from "../../../load/lib/capacity-search.ts";
import { bracketOf, nextStep, resolutionAt } from "../../../load/lib/capacity-search.ts";

const settings: SearchSettings = {
  startRate: 20,
  factor: 2,
  resolution: { kind: "relative", value: 0.05 },
  maxRate: 20_000,
  maxSteps: 40,
};

/** Runs a search against a target that holds every rate up to `capacity`, with k6 able to drive up to `reach`. */
function search(
  capacity: number,
  options: Partial<SearchSettings> = {},
  reach = Number.POSITIVE_INFINITY,
): { steps: SearchStep[]; stop: SearchStop; phases: string[] } {
  const all = { ...settings, ...options };
  const steps: SearchStep[] = [];
  const phases: string[] = [];
  for (;;) {
    const next = nextStep(steps, all);
    if (next.kind === "done") return { steps, stop: next.stop, phases };
    phases.push(next.phase);
    const outcome: StepOutcome = next.rate > reach ? "generator" : next.rate <= capacity ? "held" : "broken";
    steps.push({ rate: next.rate, outcome });
  }
}

describe("the capacity search", () => {
  it("steps up by the factor, then bisects to the resolution", () => {
    const { steps, stop, phases } = search(1000);
    expect(steps.map((s) => s.rate)).toEqual([20, 40, 80, 160, 320, 640, 1280, 960, 1120, 1040, 1000]);
    expect(phases.slice(0, 7)).toEqual(["up", "up", "up", "up", "up", "up", "up"]);
    expect(phases.slice(7).every((p) => p === "bisect")).toBe(true);
    expect(stop).toBe("bracketed");
    expect(bracketOf(steps)).toEqual({ held: 1000, broken: 1040, limited: undefined });
  });

  it("steps down from a start rate the target cannot hold", () => {
    const { steps, stop, phases } = search(7);
    expect(steps.map((s) => s.rate).slice(0, 3)).toEqual([20, 10, 5]);
    expect(phases.slice(0, 3)).toEqual(["up", "down", "down"]);
    expect(stop).toBe("bracketed");
    expect(bracketOf(steps)).toMatchObject({ held: 7, broken: 8 });
  });

  it("ends at the rate bound when every rate held, and at the lowest rate when none did", () => {
    const high = search(1e9, { maxRate: 500 });
    expect(high.stop).toBe("max-rate");
    expect(bracketOf(high.steps).held).toBe(500);
    const none = search(0);
    expect(none.stop).toBe("min-rate");
    expect(bracketOf(none.steps)).toEqual({ held: undefined, broken: 1, limited: undefined });
  });

  it("never counts a rate the generator could not drive as held, and says the generator ended the search", () => {
    const limited = search(5000, {}, 700);
    expect(limited.stop).toBe("generator");
    const bracket = bracketOf(limited.steps);
    expect(bracket.held).toBeLessThanOrEqual(700);
    expect(bracket.broken).toBeUndefined();
    expect((bracket.limited as number) - (bracket.held as number)).toBeLessThanOrEqual(
      resolutionAt(bracket.held as number, settings.resolution),
    );
    // A generator that cannot drive even the first step leaves nothing to learn.
    expect(search(5000, {}, 10)).toMatchObject({
      stop: "generator",
      steps: [{ rate: 20, outcome: "generator" }],
    });
  });

  it("stops at its step bound", () => {
    const bounded = search(1000, { maxSteps: 5 });
    expect(bounded.steps).toHaveLength(5);
    expect(bounded.stop).toBe("steps");
  });

  it("takes a resolution in events a second, never finer than one", () => {
    const { steps } = search(333, { resolution: { kind: "absolute", value: 10 } });
    const { held, broken } = bracketOf(steps);
    expect((broken as number) - (held as number)).toBeLessThanOrEqual(10);
    expect(resolutionAt(3, { kind: "relative", value: 0.05 })).toBe(1);
  });

  it("brackets any capacity within the resolution, from any start and factor, in a bounded number of steps", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.constantFrom(1.5, 2, 3),
        fc.constantFrom(0.01, 0.05, 0.1),
        (capacity, startRate, factor, share) => {
          const { steps, stop } = search(capacity, {
            startRate,
            factor,
            resolution: { kind: "relative", value: share },
            maxRate: 100_000,
            maxSteps: 100,
          });
          expect(stop).toBe("bracketed");
          const { held, broken } = bracketOf(steps);
          expect(held).toBeLessThanOrEqual(capacity);
          expect(broken).toBeGreaterThan(capacity);
          expect((broken as number) - (held as number)).toBeLessThanOrEqual(
            Math.max(1, (held as number) * share),
          );
          expect(steps.length).toBeLessThanOrEqual(60);
          // No rate is tried twice.
          expect(new Set(steps.map((s) => s.rate)).size).toBe(steps.length);
        },
      ),
    );
  });
});
