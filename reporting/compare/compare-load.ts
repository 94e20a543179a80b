import { formatDuration, formatDurationCompact } from "../index.ts";
import { compareCapacity, formatRate } from "./compare-capacity.ts";
import type { FigureStatus, GateStatus } from "./comparison-status.ts";
import type { FigureId } from "./figure-ids.ts";
import type { ChangeFloor, WorseWhen } from "./judge-shift.ts";
import { judgeShift } from "./judge-shift.ts";
import { bucketMiddle, LatencyHistogram } from "./latency-histogram.ts";
import type { LoadRecord, UnitRecord } from "./load-record.ts";
import { comparisonNotes } from "./load-record.ts";
import type { ShiftEstimate, WeightedSample } from "./shift-test.ts";
import { MIN_SHIFT_SAMPLES, sampleOf, shiftTest, weightedSample } from "./shift-test.ts";

/** How a comparison judges: the change that matters per kind of figure, the interval's confidence, the windows. */
export interface CompareOptions {
  /** Latency figures (ms): default 20 % of the baseline's value or 5 ms, whichever is larger. */
  readonly latencyFloor: ChangeFloor;
  /** The failure rate (a fraction): default 1 percentage point (or half the baseline's rate, if larger). */
  readonly failureFloor: ChangeFloor;
  /** Accepted events per second: default 5 % of the baseline's rate. */
  readonly acceptedFloor: ChangeFloor;
  /** A capacity (the highest rate held): default 10 % of the baseline's, the run-to-run noise of a search. */
  readonly capacityFloor: ChangeFloor;
  readonly confidence: number;
  /** Length of the windows judged on their own (the warm-up excluded); runs shorter than two are judged whole. */
  readonly windowSeconds: number;
  /**
   * Samples a side from which a figure is judged whatever its interval says. With fewer, an interval that clears the
   * change that matters (or lies within it) still decides, but one that reaches past it is NOT JUDGED.
   */
  readonly minSamples: number;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  latencyFloor: { relative: 0.2, absolute: 5 },
  failureFloor: { relative: 0.5, absolute: 0.01 },
  acceptedFloor: { relative: 0.05, absolute: 0 },
  capacityFloor: { relative: 0.1, absolute: 1 },
  confidence: 0.95,
  windowSeconds: 60,
  minSamples: 20,
};

/** The events and outcomes of consecutive units taken together: the unit of a per-unit figure's test. */
interface Stretch {
  readonly events: LatencyHistogram;
  readonly accepted: number;
  readonly failed: number;
  readonly seconds: number;
}

/**
 * A figure measured once per stretch of time. The record's units are joined until a stretch holds `eventsPerUnit`
 * events, so that each value is the figure it claims to be (a stretch's p99 is not merely its slowest request).
 */
interface PerUnit {
  readonly kind: "per-unit";
  readonly eventsPerUnit: number;
  /**
   * For a quantile, the share of events beyond it: the figure is judged at all only when each side holds
   * `TAIL_EVENTS_JUDGED` events there. A thinner tail moves from run to run (with the machine's load) by more than
   * its interval, which sees only the run's own stretches, says: even an interval that clears the margin is not trusted.
   */
  readonly tail?: number;
  /** The figure over one stretch; undefined when the stretch holds too little of it. */
  readonly value: (stretch: Stretch) => number | undefined;
}

/** A figure whose every request is an observation, read from the runs' merged histograms (token requests: sparse). */
interface PerRequest {
  readonly kind: "per-request";
  readonly sample: (units: readonly UnitRecord[]) => WeightedSample;
  readonly whole: (units: readonly UnitRecord[]) => number | undefined;
  /** What would give this figure more requests, for a NOT JUDGED figure. */
  readonly more: string;
}

interface FigureSpec {
  readonly id: FigureId;
  readonly label: string;
  /** The figure's name in a verdict line: "token latency not judged: 6 samples". */
  readonly short: string;
  readonly worseWhen: WorseWhen;
  readonly floor: (options: CompareOptions) => ChangeFloor;
  readonly measure: PerUnit | PerRequest;
  readonly format: (value: number) => string;
}

const ms = (value: number) => `${value.toFixed(value !== 0 && Math.abs(value) < 10 ? 2 : 1)} ms`;
const percent = (value: number) => `${(value * 100).toFixed(2)} %`;
const perSecond = (value: number) => `${value.toFixed(1)}/s`;

/** Events beyond a quantile that a side needs in all for the quantile to be judged whatever its interval. */
const TAIL_EVENTS_JUDGED = 100;
/** Events a stretch holds for a rate: a one-point change of the failure rate is then one event. */
const RATE_EVENTS = 100;

function quantileFigure(id: FigureId, q: number): FigureSpec {
  const percentile = Math.round(q * 100);
  const tail = Math.min(q, 1 - q);
  return {
    id,
    label: `events latency p${percentile}`,
    short: `events p${percentile}`,
    worseWhen: "higher",
    floor: (o) => o.latencyFloor,
    measure: {
      kind: "per-unit",
      // At least one event beyond the quantile in each stretch.
      eventsPerUnit: Math.ceil(1 / tail),
      tail,
      value: (stretch) => (stretch.events.count < 1 / tail / 2 ? undefined : stretch.events.quantile(q)),
    },
    format: ms,
  };
}

function mergedTokens(units: readonly UnitRecord[]): LatencyHistogram {
  const merged = new LatencyHistogram();
  for (const unit of units) merged.merge(LatencyHistogram.fromEntries(unit.token, unit.tokenMax));
  return merged;
}

const FIGURES: readonly FigureSpec[] = [
  quantileFigure("events.p50", 0.5),
  quantileFigure("events.p95", 0.95),
  quantileFigure("events.p99", 0.99),
  {
    id: "token.p50",
    label: "token latency",
    short: "token latency",
    worseWhen: "higher",
    floor: (o) => o.latencyFloor,
    measure: {
      kind: "per-request",
      // Every token request at its bucket's middle (2 % precision), weighted by the bucket's count; the requests of
      // one unit of time (a VU's start, a refresh burst) share its moment and count as one independent observation.
      sample: (units) => ({
        ...weightedSample(units.flatMap((unit) => unit.token.map(([i, n]) => [bucketMiddle(i), n] as const))),
        independent: units.filter((unit) => unit.token.some(([, n]) => n > 0)).length,
      }),
      whole: (units) => mergedTokens(units).quantile(0.5),
      more: "more VUs, a longer run, the token-storm scenario or --client-model token-per-iteration",
    },
    format: ms,
  },
  {
    id: "events.failure-rate",
    label: "events failure rate",
    short: "failure rate",
    worseWhen: "higher",
    floor: (o) => o.failureFloor,
    measure: {
      kind: "per-unit",
      eventsPerUnit: RATE_EVENTS,
      value: (s) => (s.accepted + s.failed === 0 ? undefined : s.failed / (s.accepted + s.failed)),
    },
    format: percent,
  },
  {
    id: "events.accepted-rate",
    label: "events accepted rate",
    short: "accepted rate",
    worseWhen: "lower",
    floor: (o) => o.acceptedFloor,
    // Every stretch counts, the empty ones too: fewer accepted events is what this figure is for.
    measure: { kind: "per-unit", eventsPerUnit: RATE_EVENTS, value: (s) => s.accepted / s.seconds },
    format: perSecond,
  },
];

/** The windows a comparison judges at most; a run with more is judged in wider ones. */
export const MAX_WINDOWS = 1_000;

/** "6 s", "90 s": a window's length as --window takes it. */
const formatSeconds = (seconds: number) => `${Number(seconds.toFixed(3))} s`;

/** The figures judged per window too: a collapse shows in latency, failures or throughput. */
const WINDOW_FIGURES: readonly FigureId[] = ["events.p95", "events.failure-rate", "events.accepted-rate"];

export interface FigureComparison {
  readonly id: FigureId;
  /** What was measured: "events latency p95 per 1 s", "token latency". */
  readonly label: string;
  readonly short: string;
  /** The window judged, in seconds from the run's first event; undefined for the whole run. */
  readonly window: { readonly fromSeconds: number; readonly toSeconds: number } | undefined;
  readonly baseline: number | undefined;
  readonly candidate: number | undefined;
  readonly shift: ShiftEstimate | undefined;
  readonly status: FigureStatus;
  readonly margin: number;
  readonly reason: string;
  /** How many observations each side had, and of what ("units of 1 s", "token requests"). */
  readonly samples: {
    readonly baseline: number;
    readonly candidate: number;
    readonly of: string;
    /** The units of time they came from, when observations of one unit are not independent (token requests). */
    readonly units?: { readonly baseline: number; readonly candidate: number; readonly ms: number };
  };
  readonly format: (value: number) => string;
}

export interface LoadComparison {
  readonly figures: readonly FigureComparison[];
  /** Windows judged on their own, each figure of `WINDOW_FIGURES`; only the ones judged and not UNCHANGED. */
  readonly windows: readonly FigureComparison[];
  readonly windowsJudged: number;
  readonly windowSeconds: number;
  /** What differs between the runs without making them incomparable: another origin, instances, k6, sandbox latency. */
  readonly notes: readonly string[];
}

/** The units a figure is judged on: past the warm-up, and without the last unit, which the run's end cuts short. */
export function judgedUnits(record: LoadRecord): readonly UnitRecord[] {
  return record.units.slice(record.warmUpUnits, Math.max(record.warmUpUnits, record.units.length - 1));
}

function eventsIn(unit: UnitRecord): number {
  let requests = 0;
  for (const [, n] of unit.events) requests += n;
  return Math.max(requests, unit.accepted + unit.failed);
}

/** Units joined per stretch so that a stretch holds `needed` events at the slower side's mean rate; 0 without events. */
function unitsPerStretch(needed: number, ...sides: readonly (readonly UnitRecord[])[]): number {
  const rates = sides.map((units) =>
    units.length === 0 ? 0 : units.reduce((sum, unit) => sum + eventsIn(unit), 0) / units.length,
  );
  const slowest = Math.min(...rates);
  return slowest > 0 ? Math.max(1, Math.ceil((needed * 0.9) / slowest)) : 0;
}

/** Consecutive stretches of `size` units (a shorter remainder left out), each merged, made one at a time. */
function* stretches(units: readonly UnitRecord[], size: number, unitMs: number): Generator<Stretch> {
  if (size < 1) return;
  for (let start = 0; start + size <= units.length; start += size) {
    const events = new LatencyHistogram();
    let accepted = 0;
    let failed = 0;
    for (let i = start; i < start + size; i += 1) {
      const unit = units[i] as UnitRecord;
      events.merge(LatencyHistogram.fromEntries(unit.events, unit.eventsMax));
      accepted += unit.accepted;
      failed += unit.failed;
    }
    yield { events, accepted, failed, seconds: (size * unitMs) / 1000 };
  }
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** One side of a figure's test: its observations, the value shown for it, and the events they come from. */
interface Side {
  readonly sample: WeightedSample;
  readonly shown: number | undefined;
  readonly events: number;
}

function perUnitSide(measure: PerUnit, units: readonly UnitRecord[], size: number, unitMs: number): Side {
  const values: number[] = [];
  let events = 0;
  for (const stretch of stretches(units, size, unitMs)) {
    const value = measure.value(stretch);
    events += Math.max(stretch.events.count, stretch.accepted + stretch.failed);
    if (value !== undefined && Number.isFinite(value)) values.push(value);
  }
  // The value shown is the median over stretches: the figure the shift is an estimate for.
  return { sample: sampleOf(values), shown: median(values), events };
}

/** How a figure is measured on both sides of one test, and what would judge it when it is not. */
interface Measured {
  readonly base: Side;
  readonly candidate: Side;
  readonly of: string;
  readonly unitMs: number;
  /** Whether a side has too few samples to be judged whatever its interval says. */
  readonly few: boolean;
  /** Whether a side's tail holds too few events to be judged at all: a tail quantile's "N events beyond p99". */
  readonly thin?: string;
  /** What judging it takes, for a NOT JUDGED figure: "20 units a side", "20 units and 2000 events a side (…)". */
  readonly needs: string;
  readonly toJudge: string;
}

function judge(
  spec: FigureSpec,
  measured: Measured,
  options: CompareOptions,
  window: FigureComparison["window"],
  label: string,
): FigureComparison {
  const { base, candidate } = measured;
  const n = base.sample.count;
  const m = candidate.sample.count;
  const nu = base.sample.independent;
  const mu = candidate.sample.independent;
  const units =
    nu === undefined || mu === undefined ? undefined : { baseline: nu, candidate: mu, ms: measured.unitMs };
  const samples = { baseline: n, candidate: m, of: measured.of, ...(units === undefined ? {} : { units }) };
  const counted = `${n} baseline and ${m} candidate ${measured.of}${units === undefined ? "" : ` from ${nu} and ${mu} unit(s) of ${formatDuration(units.ms)}`}`;
  const shift =
    n >= MIN_SHIFT_SAMPLES && m >= MIN_SHIFT_SAMPLES
      ? shiftTest(base.sample, candidate.sample, options.confidence)
      : undefined;
  const verdict = judgeShift(shift, base.shown ?? 0, spec.floor(options), spec.worseWhen, spec.format);
  // With few samples an interval still decides when it clears the margin or lies within it; one that reaches past
  // it says only that the samples were too few to tell. A thin tail decides nothing.
  const status: FigureStatus =
    shift === undefined || measured.thin !== undefined || (measured.few && verdict.status === "INCONCLUSIVE")
      ? "NOT JUDGED"
      : verdict.status;
  const reason =
    status !== "NOT JUDGED"
      ? verdict.reason
      : measured.thin !== undefined
        ? `${measured.thin} in ${counted}; ${measured.needs} judge it: ${measured.toJudge}`
        : shift === undefined
          ? `too few samples for an interval: ${counted}; ${measured.needs} judge it: ${measured.toJudge}`
          : `${verdict.reason.replace(/: the interval reaches past the margin$/, "")}: too wide to tell from ${counted}; ${measured.needs} judge it: ${measured.toJudge}`;
  return {
    id: spec.id,
    label,
    short: spec.short,
    window,
    baseline: base.shown,
    candidate: candidate.shown,
    shift,
    status,
    margin: verdict.margin,
    reason,
    samples,
    format: spec.format,
  };
}

/** "a run of about 2m10s at this rate": the length that gives a side what judging the figure takes. */
function longerRun(
  record: LoadRecord,
  units: readonly UnitRecord[],
  size: number,
  measure: PerUnit,
  minSamples: number,
): string {
  const perUnit =
    units.length === 0 ? 0 : units.reduce((sum, unit) => sum + eventsIn(unit), 0) / units.length;
  const forTail =
    measure.tail === undefined || perUnit === 0 ? 0 : TAIL_EVENTS_JUDGED / measure.tail / perUnit;
  const judgedUnits = Math.max(minSamples * Math.max(size, 1), Math.ceil(forTail));
  const seconds = ((record.warmUpUnits + judgedUnits + 1) * record.unitMs) / 1000;
  return `a run of about ${formatDurationCompact(Math.ceil(seconds) * 1000)} at this rate`;
}

/**
 * Compares a candidate run with a baseline of the same settings (the caller checks them): each gated figure over the
 * whole run, then each window of the candidate against the whole baseline, so a collapse at the end is not averaged
 * away.
 *
 * The unit of each events figure's test is a stretch of time, not a request: requests queue behind each other, so
 * a run's requests are not independent and a test over them would read every wobble of a shared machine as a change.
 * A stretch holds enough events for its figure (a p95 over 100, a p99 over 500 events) and the test is over many of
 * them, so the median of their differences is robust to a stretch a pause spoiled. Token requests are sparse and far
 * apart, so each is one observation, taken from the whole run's histograms (the warm-up included, where most are).
 */
export function compareLoad(
  base: LoadRecord,
  candidate: LoadRecord,
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
): LoadComparison {
  const steps = comparing(base, candidate, options);
  for (let step = steps.next(); ; step = steps.next()) if (step.done === true) return step.value;
}

/** How long compareLoadInterruptibly works before it gives the event loop a turn (a signal is heard then). */
const TURN_MS = 20;

/**
 * compareLoad, giving the event loop a turn between figures and windows so that SIGINT and SIGTERM are heard: it
 * rejects with the signal's reason once `signal` is aborted.
 */
export async function compareLoadInterruptibly(
  base: LoadRecord,
  candidate: LoadRecord,
  options: CompareOptions,
  signal: AbortSignal,
): Promise<LoadComparison> {
  const steps = comparing(base, candidate, options);
  let turn = performance.now();
  for (;;) {
    signal.throwIfAborted();
    const step = steps.next();
    if (step.done === true) return step.value;
    if (performance.now() - turn >= TURN_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
  }
}

/** The comparison in steps: it yields after each whole-run figure and each window, where a caller may pause. */
function* comparing(
  base: LoadRecord,
  candidate: LoadRecord,
  options: CompareOptions,
): Generator<void, LoadComparison> {
  // A capacity run is compared by its capacity alone: its steps ran at other rates from one search to the next.
  if (base.capacity !== undefined && candidate.capacity !== undefined) {
    return {
      figures: [
        {
          id: "capacity",
          label: "capacity (highest rate held)",
          short: "capacity",
          window: undefined,
          samples: { baseline: 1, candidate: 1, of: "search(es)" },
          format: formatRate,
          ...compareCapacity(base.capacity, candidate.capacity, options.capacityFloor),
        },
      ],
      windows: [],
      windowsJudged: 0,
      windowSeconds: options.windowSeconds,
      notes: comparisonNotes(base, candidate),
    };
  }
  const unitMs = candidate.unitMs;
  const baseUnits = judgedUnits(base);
  const candidateUnits = judgedUnits(candidate);
  const sizes = new Map(
    FIGURES.map((spec) => [
      spec.id,
      spec.measure.kind === "per-unit"
        ? unitsPerStretch(spec.measure.eventsPerUnit, baseUnits, candidateUnits)
        : 0,
    ]),
  );
  const unitName = (size: number) => formatDuration(size * unitMs);
  // The baseline's side of a per-unit figure is the same for the whole run and every window: measured once.
  const baseSides = new Map<FigureId, Side>();
  const measuredBase = (spec: FigureSpec, m: PerUnit, units: readonly UnitRecord[], size: number): Side => {
    if (units !== baseUnits) return perUnitSide(m, units, size, unitMs);
    let side = baseSides.get(spec.id);
    if (side === undefined) {
      side = perUnitSide(m, units, size, unitMs);
      baseSides.set(spec.id, side);
    }
    return side;
  };
  const measure = (
    spec: FigureSpec,
    baseSideUnits: readonly UnitRecord[],
    candidateSide: readonly UnitRecord[],
    toJudge: (size: number, measure: PerUnit) => string,
  ): { measured: Measured; label: string } => {
    const m = spec.measure;
    if (m.kind === "per-request") {
      const side = (units: readonly UnitRecord[]): Side => {
        const sample = m.sample(units);
        return { sample, shown: m.whole(units), events: sample.count };
      };
      const [b, c] = [side(baseSideUnits), side(candidateSide)];
      return {
        measured: {
          base: b,
          candidate: c,
          of: "request(s)",
          unitMs,
          few:
            Math.min(b.sample.independent ?? b.sample.count, c.sample.independent ?? c.sample.count) <
            options.minSamples,
          needs: `${options.minSamples} units of time holding token requests a side`,
          toJudge: m.more,
        },
        label: spec.label,
      };
    }
    const size = sizes.get(spec.id) ?? 0;
    const [b, c] = [measuredBase(spec, m, baseSideUnits, size), perUnitSide(m, candidateSide, size, unitMs)];
    const tailNeeded = m.tail === undefined ? 0 : Math.round(TAIL_EVENTS_JUDGED / m.tail);
    const beyond = m.tail === undefined || m.tail === 0.5 ? "" : `p${Math.round((1 - m.tail) * 100)}`;
    const fewest = Math.min(b.events, c.events);
    const thin =
      beyond !== "" && fewest < tailNeeded && m.tail !== undefined
        ? `a thin tail: ${Math.floor(fewest * m.tail)} events beyond ${beyond} on the side with fewer`
        : undefined;
    return {
      measured: {
        base: b,
        candidate: c,
        of: size > 0 ? `unit(s) of ${unitName(size)}` : "unit(s): no events",
        unitMs: size * unitMs,
        few: Math.min(b.sample.count, c.sample.count) < options.minSamples,
        ...(thin === undefined ? {} : { thin }),
        needs:
          beyond === ""
            ? `${options.minSamples} units a side`
            : `${options.minSamples} units and ${tailNeeded} events a side (${TAIL_EVENTS_JUDGED} beyond ${beyond})`,
        toJudge: toJudge(size, m),
      },
      label: size > 0 ? `${spec.label} per ${unitName(size)}` : spec.label,
    };
  };
  const figures: FigureComparison[] = [];
  for (const spec of FIGURES) {
    const whole = spec.measure.kind === "per-request";
    const { measured, label } = measure(
      spec,
      whole ? base.units : baseUnits,
      whole ? candidate.units : candidateUnits,
      (size, m) => longerRun(candidate, candidateUnits, size, m, options.minSamples),
    );
    figures.push(judge(spec, measured, options, undefined, label));
    yield;
  }
  const asked = Math.max(1, Math.round((options.windowSeconds * 1000) / unitMs));
  // Past MAX_WINDOWS the windows widen: each is judged against the whole baseline, so their count bounds the work.
  const perWindow = Math.max(asked, Math.ceil(candidateUnits.length / MAX_WINDOWS));
  const windowSeconds = perWindow === asked ? options.windowSeconds : (perWindow * unitMs) / 1000;
  const notes = comparisonNotes(base, candidate);
  if (perWindow !== asked && candidateUnits.length >= 2 * perWindow) {
    notes.push(
      `windows of ${formatSeconds(windowSeconds)}, not the ${formatSeconds(options.windowSeconds)} asked: a comparison judges at most ${MAX_WINDOWS} windows of a run`,
    );
  }
  const windows: FigureComparison[] = [];
  let windowsJudged = 0;
  if (candidateUnits.length >= 2 * perWindow) {
    for (let start = 0; start < candidateUnits.length; start += perWindow) {
      const slice = candidateUnits.slice(start, start + perWindow);
      const offset = candidate.warmUpUnits + start;
      const window = {
        fromSeconds: (offset * unitMs) / 1000,
        toSeconds: ((offset + slice.length) * unitMs) / 1000,
      };
      let judged = false;
      for (const spec of FIGURES.filter((f) => WINDOW_FIGURES.includes(f.id))) {
        const { measured, label } = measure(spec, baseUnits, slice, () => "a longer --window");
        const result = judge(spec, measured, options, window, label);
        if (result.status === "NOT JUDGED") continue;
        judged = true;
        if (result.status !== "UNCHANGED") windows.push(result);
      }
      if (judged) windowsJudged += 1;
      yield;
    }
  }
  return { figures, windows, windowsJudged, windowSeconds, notes };
}

/** The figures and windows that a verdict reads: every one judged (WAIVED included), none NOT JUDGED. */
function judged(comparison: LoadComparison): FigureComparison[] {
  return [...comparison.figures, ...comparison.windows].filter((f) => f.status !== "NOT JUDGED");
}

/**
 * The comparison's verdict from its judged figures: REGRESSED when any is, else INCONCLUSIVE when any interval reaches
 * past the change that matters, else WAIVED when a regression was accepted, else IMPROVED or UNCHANGED. A comparison
 * that could judge no figure at all is INCONCLUSIVE: it proved nothing.
 */
export function comparisonStatus(comparison: LoadComparison): GateStatus {
  const all = judged(comparison).map((f) => f.status);
  if (all.length === 0) return "INCONCLUSIVE";
  for (const status of ["REGRESSED", "INCONCLUSIVE", "WAIVED", "IMPROVED"] as const) {
    if (all.includes(status)) return status;
  }
  return "UNCHANGED";
}

/** The figures (whole run only) that were NOT JUDGED, for the verdict line. */
export function notJudged(comparison: LoadComparison): readonly FigureComparison[] {
  return comparison.figures.filter((f) => f.status === "NOT JUDGED");
}
