import type { FigureStatus } from "./comparison-status.ts";
import type { ChangeFloor } from "./judge-shift.ts";
import type { CapacityRecord } from "./load-record.ts";
import type { ShiftEstimate } from "./shift-test.ts";

/** A capacity compared with its baseline's: the figure's status, the change that matters, and why. */
export interface CapacityJudgement {
  readonly baseline: number | undefined;
  readonly candidate: number | undefined;
  /** The change's range as an interval (its estimate: the difference of the rates held). */
  readonly shift: ShiftEstimate | undefined;
  readonly status: FigureStatus;
  readonly margin: number;
  readonly reason: string;
}

export const formatRate = (value: number) => `${Math.round(value * 10) / 10}/s`;

const perSecond = formatRate;

/** Where a capacity search places the capacity: at or above the rate held, below the rate broken (none: no bound). */
function interval(record: CapacityRecord): { readonly low: number; readonly high: number } {
  return { low: record.held ?? 0, high: record.broken ?? Number.POSITIVE_INFINITY };
}

function bounds(record: CapacityRecord): string {
  if (record.held === null)
    return `none held${record.broken === null ? "" : `, ${perSecond(record.broken)} broken`}`;
  return record.broken === null
    ? `at least ${perSecond(record.held)}`
    : `${perSecond(record.held)} held, ${perSecond(record.broken)} broken`;
}

/**
 * Judges a capacity against its baseline's. Each search places its capacity between the highest rate it held and
 * the lowest it broke (unbounded above when no rate broke: the rate bound, the generator or time ended it), so the
 * change lies between the candidate's lowest and the baseline's highest reading, and the other way round: its
 * interval is [held′ − broken, broken′ − held]. As for the other figures, REGRESSED needs the whole interval beyond
 * the change that matters (the larger of a share of the baseline's capacity and an absolute rate: the run-to-run
 * noise), IMPROVED likewise above it, UNCHANGED the whole interval within it; INCONCLUSIVE otherwise. A drop within
 * the searches' resolution, or within the noise, is never REGRESSED.
 */
export function compareCapacity(
  base: CapacityRecord,
  candidate: CapacityRecord,
  floor: ChangeFloor,
): CapacityJudgement {
  const common = { baseline: base.held ?? undefined, candidate: candidate.held ?? undefined };
  if (base.held === null) {
    return {
      ...common,
      shift: undefined,
      status: "NOT JUDGED",
      margin: floor.absolute,
      reason: `the baseline held no rate (${bounds(base)}): nothing to compare with`,
    };
  }
  const margin = Math.max(floor.relative * base.held, floor.absolute);
  const b = interval(base);
  const c = interval(candidate);
  const low = c.low - b.high;
  const high = c.high - b.low;
  const estimate = (candidate.held ?? 0) - base.held;
  const status: FigureStatus =
    high <= -margin
      ? "REGRESSED"
      : low >= margin
        ? "IMPROVED"
        : low > -margin && high < margin
          ? "UNCHANGED"
          : "INCONCLUSIVE";
  const range = `${Number.isFinite(low) ? perSecond(low) : "−∞"} and ${Number.isFinite(high) ? perSecond(high) : "+∞"}`;
  const reason =
    `baseline ${bounds(base)}, this run ${bounds(candidate)}: the change lies between ${range}, change that matters ${perSecond(margin)}` +
    (status === "INCONCLUSIVE" ? ": the range reaches past the margin" : "");
  return {
    ...common,
    shift: {
      baselineCount: 1,
      candidateCount: 1,
      estimate,
      low,
      high,
      pValue: Number.NaN,
      confidence: 1,
    },
    status,
    margin,
    reason,
  };
}
