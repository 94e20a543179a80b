import type { ComparisonStatus } from "./comparison-status.ts";
import type { ShiftEstimate } from "./shift-test.ts";

/** The smallest change that matters: the larger of a share of the baseline's value and an absolute amount. */
export interface ChangeFloor {
  readonly relative: number;
  readonly absolute: number;
}

export interface ShiftVerdict {
  readonly status: ComparisonStatus;
  /** The change that matters here, in the figure's unit: max(relative × baseline, absolute). */
  readonly margin: number;
  readonly reason: string;
}

/** Which direction of change is worse for a figure: latency and failures up, accepted events down. */
export type WorseWhen = "higher" | "lower";

/**
 * Judges a shift as an equivalence test does: REGRESSED or IMPROVED only when the whole confidence interval lies
 * beyond the margin, UNCHANGED only when it lies within it, INCONCLUSIVE otherwise or without an interval.
 */
export function judgeShift(
  shift: ShiftEstimate | undefined,
  baselineValue: number,
  floor: ChangeFloor,
  worseWhen: WorseWhen,
  format: (value: number) => string,
): ShiftVerdict {
  const margin = Math.max(floor.relative * Math.abs(baselineValue), floor.absolute);
  if (shift === undefined) {
    return { status: "INCONCLUSIVE", margin, reason: "too few samples for a confidence interval" };
  }
  const sign = worseWhen === "higher" ? 1 : -1;
  const worseLow = sign === 1 ? shift.low : -shift.high;
  const worseHigh = sign === 1 ? shift.high : -shift.low;
  const interval = `shift ${format(shift.estimate)} (${Math.round(shift.confidence * 100)} % CI ${format(shift.low)} to ${format(shift.high)}), change that matters ${format(margin)}`;
  if (worseLow >= margin) return { status: "REGRESSED", margin, reason: interval };
  if (worseHigh <= -margin) return { status: "IMPROVED", margin, reason: interval };
  if (worseLow > -margin && worseHigh < margin) return { status: "UNCHANGED", margin, reason: interval };
  return { status: "INCONCLUSIVE", margin, reason: `${interval}: the interval reaches past the margin` };
}
