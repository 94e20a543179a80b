import { LatencyHistogram } from "../run/index.ts";
import type { ComparisonStatus } from "./comparison-status.ts";
import type { ChangeFloor, ShiftVerdict, WorseWhen } from "./judge-shift.ts";
import { judgeShift } from "./judge-shift.ts";
import type { LoadRecord, UnitRecord } from "./load-record.ts";
import type { ShiftEstimate } from "./shift-test.ts";
import { shiftTest } from "./shift-test.ts";

/** How a comparison judges: the change that matters per kind of figure, the interval's confidence, the windows. */
export interface CompareOptions {
  /** Latency figures (ms): default 20 % of the baseline's value or 5 ms, whichever is larger. */
  readonly latencyFloor: ChangeFloor;
  /** The failure rate (a fraction): default 1 percentage point (or half the baseline's rate, if larger). */
  readonly failureFloor: ChangeFloor;
  /** Accepted events per second: default 5 % of the baseline's rate. */
  readonly acceptedFloor: ChangeFloor;
  readonly confidence: number;
  /** Length of the windows judged on their own (the warm-up excluded); runs shorter than two are judged whole. */
  readonly windowSeconds: number;
  /** Fewest units a side needs for a verdict; below it a figure is INCONCLUSIVE. */
  readonly minUnits: number;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  latencyFloor: { relative: 0.2, absolute: 5 },
  failureFloor: { relative: 0.5, absolute: 0.01 },
  acceptedFloor: { relative: 0.05, absolute: 0 },
  confidence: 0.95,
  windowSeconds: 60,
  minUnits: 8,
};

export type FigureId =
  | "events.p50"
  | "events.p95"
  | "events.p99"
  | "token.p50"
  | "events.failure-rate"
  | "events.accepted-rate";

interface FigureSpec {
  readonly id: FigureId;
  readonly label: string;
  readonly worseWhen: WorseWhen;
  readonly floor: (options: CompareOptions) => ChangeFloor;
  /** The figure over one unit; undefined when the unit holds no sample of it. */
  readonly perUnit: (unit: UnitRecord, unitMs: number) => number | undefined;
  /**
   * Observations taken per request instead of per unit, from every unit (token requests are sparse, so they queue
   * behind each other far less than events do, and most happen in the warm-up).
   */
  readonly perRequest?: (units: readonly UnitRecord[]) => number[];
  /** The figure over a whole stretch of units, for display. */
  readonly whole: (units: readonly UnitRecord[], unitMs: number) => number | undefined;
  readonly format: (value: number) => string;
}

const ms = (value: number) => `${value.toFixed(value !== 0 && Math.abs(value) < 10 ? 2 : 1)} ms`;
const percent = (value: number) => `${(value * 100).toFixed(2)} %`;
const perSecond = (value: number) => `${value.toFixed(1)}/s`;

function histogramOf(unit: UnitRecord, endpoint: "events" | "token"): LatencyHistogram {
  return endpoint === "events"
    ? LatencyHistogram.fromEntries(unit.events, unit.eventsMax)
    : LatencyHistogram.fromEntries(unit.token, unit.tokenMax);
}

function mergedQuantile(
  units: readonly UnitRecord[],
  endpoint: "events" | "token",
  q: number,
): number | undefined {
  const merged = new LatencyHistogram();
  for (const unit of units) merged.merge(histogramOf(unit, endpoint));
  return merged.quantile(q);
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** An events latency quantile per unit; shown as the median over units, the value its test compares. */
function eventsLatencyFigure(id: FigureId, label: string, q: number): FigureSpec {
  const perUnit = (unit: UnitRecord) => histogramOf(unit, "events").quantile(q);
  return {
    id,
    label,
    worseWhen: "higher",
    floor: (o) => o.latencyFloor,
    perUnit,
    whole: (units) => median(units.map(perUnit).filter((v): v is number => v !== undefined)),
    format: ms,
  };
}

/** Every token request's latency, at its bucket's middle (2 % precision). */
function tokenLatencies(units: readonly UnitRecord[]): number[] {
  const out: number[] = [];
  for (const unit of units) {
    for (const [index, n] of unit.token) {
      const single = LatencyHistogram.fromEntries([[index, 1]], unit.tokenMax).quantile(0.5) as number;
      for (let i = 0; i < n; i += 1) out.push(single);
    }
  }
  return out;
}

const FIGURES: readonly FigureSpec[] = [
  eventsLatencyFigure("events.p50", "events latency p50 per unit", 0.5),
  eventsLatencyFigure("events.p95", "events latency p95 per unit", 0.95),
  eventsLatencyFigure("events.p99", "events latency p99 per unit", 0.99),
  {
    id: "token.p50",
    label: "token latency",
    worseWhen: "higher",
    floor: (o) => o.latencyFloor,
    perUnit: () => undefined,
    perRequest: tokenLatencies,
    whole: (units) => mergedQuantile(units, "token", 0.5),
    format: ms,
  },
  {
    id: "events.failure-rate",
    label: "events failure rate",
    worseWhen: "higher",
    floor: (o) => o.failureFloor,
    perUnit: (u) => (u.accepted + u.failed === 0 ? undefined : u.failed / (u.accepted + u.failed)),
    whole: (units) => {
      const failed = units.reduce((sum, u) => sum + u.failed, 0);
      const all = units.reduce((sum, u) => sum + u.accepted + u.failed, 0);
      return all === 0 ? undefined : failed / all;
    },
    format: percent,
  },
  {
    id: "events.accepted-rate",
    label: "events accepted rate",
    worseWhen: "lower",
    floor: (o) => o.acceptedFloor,
    perUnit: (u, unitMs) => u.accepted / (unitMs / 1000),
    whole: (units, unitMs) =>
      units.length === 0
        ? undefined
        : units.reduce((s, u) => s + u.accepted, 0) / ((units.length * unitMs) / 1000),
    format: perSecond,
  },
];

/** The figures judged per window too: a collapse shows in latency, failures or throughput. */
const WINDOW_FIGURES: readonly FigureId[] = ["events.p95", "events.failure-rate", "events.accepted-rate"];

export interface FigureComparison {
  readonly id: FigureId;
  readonly label: string;
  /** The window judged, in seconds from the run's first event; undefined for the whole run. */
  readonly window: { readonly fromSeconds: number; readonly toSeconds: number } | undefined;
  readonly baseline: number | undefined;
  readonly candidate: number | undefined;
  readonly shift: ShiftEstimate | undefined;
  readonly status: ComparisonStatus;
  readonly margin: number;
  readonly reason: string;
  readonly format: (value: number) => string;
}

export interface LoadComparison {
  readonly figures: readonly FigureComparison[];
  /** Windows judged on their own, each figure of `WINDOW_FIGURES`; only the ones that did not stay UNCHANGED. */
  readonly windows: readonly FigureComparison[];
  readonly windowsJudged: number;
  readonly windowSeconds: number;
}

/** The units a figure is judged on: past the warm-up, and without the last unit, which the run's end cuts short. */
export function judgedUnits(record: LoadRecord): readonly UnitRecord[] {
  return record.units.slice(record.warmUpUnits, Math.max(record.warmUpUnits, record.units.length - 1));
}

function values(spec: FigureSpec, units: readonly UnitRecord[], unitMs: number): number[] {
  const out: number[] = [];
  for (const unit of units) {
    const value = spec.perUnit(unit, unitMs);
    if (value !== undefined) out.push(value);
  }
  return out;
}

function compareFigure(
  spec: FigureSpec,
  base: readonly UnitRecord[],
  candidate: readonly UnitRecord[],
  unitMs: number,
  options: CompareOptions,
  window: FigureComparison["window"],
): FigureComparison {
  const baseValues = spec.perRequest ? spec.perRequest(base) : values(spec, base, unitMs);
  const candidateValues = spec.perRequest ? spec.perRequest(candidate) : values(spec, candidate, unitMs);
  const what = spec.perRequest ? "request(s)" : `unit(s) of ${unitMs} ms`;
  const baseline = spec.whole(base, unitMs);
  const enough = baseValues.length >= options.minUnits && candidateValues.length >= options.minUnits;
  const shift = enough ? shiftTest(baseValues, candidateValues, options.confidence) : undefined;
  let verdict: ShiftVerdict = judgeShift(
    shift,
    baseline ?? 0,
    spec.floor(options),
    spec.worseWhen,
    spec.format,
  );
  if (!enough) {
    verdict = {
      ...verdict,
      reason: `too few samples: ${baseValues.length} baseline and ${candidateValues.length} candidate ${what}, ${options.minUnits} needed on each side`,
    };
  }
  return {
    id: spec.id,
    label: spec.label,
    window,
    baseline,
    candidate: spec.whole(candidate, unitMs),
    shift,
    status: verdict.status,
    margin: verdict.margin,
    reason: verdict.reason,
    format: spec.format,
  };
}

/**
 * Compares a candidate run with a baseline of the same settings (the caller checks them): each gated figure over the
 * whole run, then each window of the candidate against the whole baseline, so a collapse at the end is not averaged
 * away. The unit of every test is the figure over one unit of time, not a request: requests queue behind each other.
 */
export function compareLoad(
  base: LoadRecord,
  candidate: LoadRecord,
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
): LoadComparison {
  const unitMs = candidate.unitMs;
  const baseUnits = judgedUnits(base);
  const candidateUnits = judgedUnits(candidate);
  const figures = FIGURES.map((spec) =>
    spec.perRequest
      ? compareFigure(spec, base.units, candidate.units, unitMs, options, undefined)
      : compareFigure(spec, baseUnits, candidateUnits, unitMs, options, undefined),
  );
  const perWindow = Math.max(1, Math.round((options.windowSeconds * 1000) / unitMs));
  const windows: FigureComparison[] = [];
  let windowsJudged = 0;
  if (candidateUnits.length >= 2 * perWindow) {
    for (let start = 0; start < candidateUnits.length; start += perWindow) {
      const slice = candidateUnits.slice(start, start + perWindow);
      if (slice.length < options.minUnits) continue;
      windowsJudged += 1;
      const offset = candidate.warmUpUnits + start;
      const window = {
        fromSeconds: (offset * unitMs) / 1000,
        toSeconds: ((offset + slice.length) * unitMs) / 1000,
      };
      for (const spec of FIGURES.filter((f) => WINDOW_FIGURES.includes(f.id))) {
        const result = compareFigure(spec, baseUnits, slice, unitMs, options, window);
        if (result.status !== "UNCHANGED") windows.push(result);
      }
    }
  }
  return { figures, windows, windowsJudged, windowSeconds: options.windowSeconds };
}

/** The comparison's verdict: REGRESSED when any figure or window is, else IMPROVED, UNCHANGED or INCONCLUSIVE. */
export function comparisonStatus(comparison: LoadComparison): ComparisonStatus {
  const all = [...comparison.figures, ...comparison.windows].map((f) => f.status);
  if (all.includes("REGRESSED")) return "REGRESSED";
  if (all.includes("INCONCLUSIVE")) return "INCONCLUSIVE";
  if (all.includes("IMPROVED")) return "IMPROVED";
  return "UNCHANGED";
}
