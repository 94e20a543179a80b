import { normalCdf, normalQuantile } from "./normal-distribution.ts";

/**
 * Observations as distinct values with a weight each, ascending: a latency histogram's buckets (value = the bucket's
 * middle, weight = its count) or plain numbers (weight 1). Every statistic below costs the number of distinct values,
 * never the number of observations, so a histogram of a million requests costs what one of a few hundred buckets does.
 */
export interface WeightedSample {
  readonly values: Float64Array;
  readonly weights: Float64Array;
  /** The sum of the weights: how many observations the sample stands for. */
  readonly count: number;
  /**
   * How many of them are independent, when fewer: observations made in the same moment share its conditions (the
   * token requests of a burst queue behind each other), so the interval is as wide as this many would make it.
   */
  readonly independent?: number;
}

/** Aggregates [value, weight] pairs into a sample: equal values merged, ascending, zero weights and non-finite values left out. */
export function weightedSample(pairs: Iterable<readonly [number, number]>): WeightedSample {
  const merged = new Map<number, number>();
  for (const [value, weight] of pairs) {
    if (!Number.isFinite(value) || !(weight > 0) || !Number.isFinite(weight)) continue;
    merged.set(value, (merged.get(value) ?? 0) + weight);
  }
  const values = Float64Array.from(merged.keys()).sort();
  const weights = values.map((value) => merged.get(value) as number);
  return { values, weights, count: weights.reduce((sum, weight) => sum + weight, 0) };
}

/** Plain observations, one each. */
export function sampleOf(values: readonly number[]): WeightedSample {
  return weightedSample(values.map((value) => [value, 1] as const));
}

/** The Mann-Whitney U test of candidate against baseline, and the Hodges-Lehmann shift with its confidence interval. */
export interface ShiftEstimate {
  /** Observations on each side (the weights' sums). */
  readonly baselineCount: number;
  readonly candidateCount: number;
  /** Hodges-Lehmann estimate: the median of every candidate − baseline difference. */
  readonly estimate: number;
  /** The confidence interval of the shift (inverted Mann-Whitney test, normal approximation). */
  readonly low: number;
  readonly high: number;
  /** Two-sided p-value of the Mann-Whitney U test (normal approximation, ties and continuity corrected). */
  readonly pValue: number;
  readonly confidence: number;
}

/** Below this many observations on a side no interval at 95 % exists (5 × 5 is the smallest), so no verdict either. */
export const MIN_SHIFT_SAMPLES = 5;

/**
 * The first index from `from` on whose value lies within `t` below `v` (v − value ≤ t), or the length when none does.
 * It gallops (steps of 1, 2, 4 … then halves), so a window of a few values against a long baseline costs the log of
 * the baseline's length per value, not the length.
 */
function firstWithin(values: Float64Array, from: number, v: number, t: number): number {
  const n = values.length;
  if (from >= n || !(v - (values[from] as number) > t)) return from;
  // values[lo] is still more than t below v; values[hi] is not, or hi is the length.
  let lo = from;
  let hi = from + 1;
  for (let step = 1; hi < n && v - (values[hi] as number) > t; step *= 2) {
    lo = hi;
    hi = Math.min(n, lo + step * 2);
  }
  while (hi - lo > 1) {
    const middle = lo + ((hi - lo) >>> 1);
    if (v - (values[middle] as number) > t) lo = middle;
    else hi = middle;
  }
  return hi;
}

/**
 * How many of the n·m differences (candidate − baseline, weighted by the product of the weights) are at most `t`: one
 * pass over both samples, since for ascending candidate values the first baseline value within `t` only moves right.
 */
function weightAtMost(
  base: WeightedSample,
  candidate: WeightedSample,
  t: number,
  suffix: Float64Array,
): number {
  let total = 0;
  let j = 0;
  const n = base.values.length;
  for (let i = 0; i < candidate.values.length; i += 1) {
    const v = candidate.values[i] as number;
    j = firstWithin(base.values, j, v, t);
    if (j === n) break;
    total += (candidate.weights[i] as number) * (suffix[j] as number);
  }
  return total;
}

/** The smallest difference greater than `t`, or +∞ when none is. */
function nextDifference(base: WeightedSample, candidate: WeightedSample, t: number): number {
  let best = Number.POSITIVE_INFINITY;
  let j = 0;
  for (let i = 0; i < candidate.values.length; i += 1) {
    const v = candidate.values[i] as number;
    // The first baseline value whose difference is within t; the one before it gives the smallest difference above t.
    j = firstWithin(base.values, j, v, t);
    if (j > 0) best = Math.min(best, v - (base.values[j - 1] as number));
  }
  return best;
}

/**
 * The k-th smallest of the weighted differences (1-based), exactly and without listing them: bisection on the value
 * with `weightAtMost`, then a step to the difference that holds rank k. Costs O((n + m) · 64) for n and m distinct values.
 */
function kthDifference(
  base: WeightedSample,
  candidate: WeightedSample,
  k: number,
  suffix: Float64Array,
): number {
  const first = (candidate.values[0] as number) - (base.values[base.values.length - 1] as number);
  let lo = first - Math.max(1, Math.abs(first));
  let hi = (candidate.values[candidate.values.length - 1] as number) - (base.values[0] as number);
  for (let i = 0; i < 200; i += 1) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (weightAtMost(base, candidate, mid, suffix) >= k) hi = mid;
    else lo = mid;
  }
  // Now no difference lies strictly between lo and hi but the few at hi's precision: step to the one of rank k.
  for (;;) {
    const next = nextDifference(base, candidate, lo);
    if (!Number.isFinite(next) || weightAtMost(base, candidate, next, suffix) >= k) return next;
    lo = next;
  }
}

/**
 * Compares two sets of independent observations by rank, so skewed and heavy-tailed latencies need no model; undefined
 * when either side has too few observations for an interval at `confidence`.
 */
export function shiftTest(
  baseline: WeightedSample,
  candidate: WeightedSample,
  confidence = 0.95,
): ShiftEstimate | undefined {
  const n = baseline.count;
  const m = candidate.count;
  const nEff = Math.min(n, baseline.independent ?? n);
  const mEff = Math.min(m, candidate.independent ?? m);
  if (nEff < MIN_SHIFT_SAMPLES || mEff < MIN_SHIFT_SAMPLES) return undefined;
  const nm = n * m;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  // Ranks k and nm−k+1 of the sorted differences bound the interval (Hollander & Wolfe, large-sample form), taken
  // as a share of the differences when fewer observations are independent than there are.
  const effective = nEff * mEff;
  const effectiveRank = Math.floor(effective / 2 - z * Math.sqrt((effective * (nEff + mEff + 1)) / 12));
  if (effectiveRank < 1) return undefined;
  const rank = effective === nm ? effectiveRank : Math.max(1, Math.floor((effectiveRank / effective) * nm));
  const suffix = new Float64Array(baseline.values.length + 1);
  for (let j = baseline.values.length - 1; j >= 0; j -= 1) {
    suffix[j] = (suffix[j + 1] as number) + (baseline.weights[j] as number);
  }
  const kth = (k: number) => kthDifference(baseline, candidate, k, suffix);
  // Past 2^53 observations a rank's parity means nothing: the upper middle stands for the median.
  const median =
    nm % 2 === 1 || nm > Number.MAX_SAFE_INTEGER
      ? kth(Math.ceil(nm / 2))
      : (kth(nm / 2) + kth(nm / 2 + 1)) / 2;
  return {
    baselineCount: n,
    candidateCount: m,
    estimate: median,
    low: kth(rank),
    high: kth(nm - rank + 1),
    pValue: mannWhitneyP(baseline, candidate, (nEff * mEff) / nm),
    confidence,
  };
}

/**
 * Two-sided p-value of U, from midranks with the tie correction of the variance, over the distinct values; the
 * statistic is scaled by `independence` (the share of independent observations) when fewer are.
 */
function mannWhitneyP(baseline: WeightedSample, candidate: WeightedSample, independence: number): number {
  const n = baseline.count;
  const m = candidate.count;
  const total = n + m;
  let candidateRanks = 0;
  let tieTerm = 0;
  let seen = 0;
  let i = 0;
  let j = 0;
  while (i < baseline.values.length || j < candidate.values.length) {
    const b = i < baseline.values.length ? (baseline.values[i] as number) : Number.POSITIVE_INFINITY;
    const c = j < candidate.values.length ? (candidate.values[j] as number) : Number.POSITIVE_INFINITY;
    const value = Math.min(b, c);
    const fromBase = b === value ? (baseline.weights[i++] as number) : 0;
    const fromCandidate = c === value ? (candidate.weights[j++] as number) : 0;
    const ties = fromBase + fromCandidate;
    candidateRanks += fromCandidate * (seen + (ties + 1) / 2);
    tieTerm += ties ** 3 - ties;
    seen += ties;
  }
  const u = candidateRanks - (m * (m + 1)) / 2;
  const mean = (n * m) / 2;
  const variance = ((n * m) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
  if (!(variance > 0)) return 1;
  const z = (Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance)) * Math.sqrt(independence);
  return Math.min(1, 2 * (1 - normalCdf(z)));
}
