import type { ScenarioPlan } from "./scenario-plan.ts";

/**
 * How k6 splits a scenario over n equal execution segments (go.k6.io/k6 lib/execution_segment.go and
 * lib/executor/*.go), so the harness can state each instance's share and tests can check the shares add up.
 */

/** The `--execution-segment` of instance `index` (0-based) out of `count` equal ones, e.g. `1/3:2/3`. */
export function executionSegment(index: number, count: number): string {
  return `${fraction(index, count)}:${fraction(index + 1, count)}`;
}

/** The `--execution-segment-sequence` every instance is given, e.g. `0,1/3,2/3,1`. */
export function executionSegmentSequence(count: number): string {
  return Array.from({ length: count + 1 }, (_, i) => fraction(i, count)).join(",");
}

/**
 * k6's ScaleInt64 for equal segments: the striping hands unit j to segment j mod count, so the shares of any
 * integer add up to it exactly.
 */
export function segmentShare(value: number, index: number, count: number): number {
  return Math.floor(value / count) + (index < value % count ? 1 : 0);
}

/** The work one instance does. */
export interface SegmentWork {
  /** VUs it starts with (pre-allocated VUs for arrival-rate executors). */
  readonly vus: number;
  readonly maxVus: number;
  /** Iterations it schedules (open models) or runs (per-vu-iterations); undefined for constant-vus. */
  readonly iterations: number | undefined;
  /** Share of the arrival rate (open models), 0 for closed models. */
  readonly rateShare: number;
}

function integer(executor: ScenarioPlan["executor"], key: string): number {
  const value = executor[key];
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new Error(`the ${executor.executor} plan has no integer ${key}`);
  }
  return value;
}

/** The share of `plan` that instance `index` of `count` runs, the way k6 splits each executor the harness uses. */
export function segmentWork(plan: ScenarioPlan, index: number, count: number): SegmentWork {
  const { executor } = plan;
  switch (executor.executor) {
    case "constant-arrival-rate":
    case "ramping-arrival-rate": {
      const maxVus = integer(executor, "maxVUs");
      // k6 re-segments the rate by maxVUs; with maxVUs a multiple of count that is the same equal sequence.
      if (maxVus % count !== 0) {
        throw new Error(
          `maxVUs ${maxVus} is not a multiple of ${count} instances: the rate would split unevenly`,
        );
      }
      return {
        vus: segmentShare(integer(executor, "preAllocatedVUs"), index, count),
        maxVus: segmentShare(maxVus, index, count),
        iterations:
          plan.plannedIterations === undefined
            ? undefined
            : segmentShare(plan.plannedIterations, index, count),
        rateShare: 1 / count,
      };
    }
    case "per-vu-iterations": {
      // VUs are split; each keeps the full per-VU schedule, so every instance runs whole gap cycles.
      const vus = segmentShare(integer(executor, "vus"), index, count);
      return { vus, maxVus: vus, iterations: vus * integer(executor, "iterations"), rateShare: 0 };
    }
    case "constant-vus": {
      const vus = segmentShare(integer(executor, "vus"), index, count);
      return { vus, maxVus: vus, iterations: undefined, rateShare: 0 };
    }
    default:
      throw new Error(`no split known for executor ${executor.executor}`);
  }
}

function fraction(numerator: number, denominator: number): string {
  if (numerator === 0) return "0";
  if (numerator === denominator) return "1";
  const divisor = gcd(numerator, denominator);
  return `${numerator / divisor}/${denominator / divisor}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
