import { normalCdf, normalQuantile } from "./normal-distribution.ts";

/** The Mann-Whitney U test of candidate against baseline, and the Hodges-Lehmann shift with its confidence interval. */
export interface ShiftEstimate {
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

/** Below this many units on a side no interval at 95 % exists (5 × 5 is the smallest), so no verdict either. */
export const MIN_SHIFT_SAMPLES = 5;

/**
 * Compares two sets of independent observations by rank, so skewed and heavy-tailed latencies need no model; undefined
 * when either side has too few observations for an interval at `confidence`.
 */
export function shiftTest(
  baseline: readonly number[],
  candidate: readonly number[],
  confidence = 0.95,
): ShiftEstimate | undefined {
  const n = baseline.length;
  const m = candidate.length;
  if (n < MIN_SHIFT_SAMPLES || m < MIN_SHIFT_SAMPLES) return undefined;
  const nm = n * m;
  const differences = new Float64Array(nm);
  let k = 0;
  for (const c of candidate) for (const b of baseline) differences[k++] = c - b;
  differences.sort();
  const z = normalQuantile(1 - (1 - confidence) / 2);
  // Ranks k and nm−k+1 of the sorted differences bound the interval (Hollander & Wolfe, large-sample form).
  const rank = Math.floor(nm / 2 - z * Math.sqrt((nm * (n + m + 1)) / 12));
  if (rank < 1) return undefined;
  const median =
    nm % 2 === 1
      ? (differences[(nm - 1) / 2] as number)
      : ((differences[nm / 2 - 1] as number) + (differences[nm / 2] as number)) / 2;
  return {
    baselineCount: n,
    candidateCount: m,
    estimate: median,
    low: differences[rank - 1] as number,
    high: differences[nm - rank] as number,
    pValue: mannWhitneyP(baseline, candidate),
    confidence,
  };
}

/** Two-sided p-value of U, from midranks with the tie correction of the variance. */
function mannWhitneyP(baseline: readonly number[], candidate: readonly number[]): number {
  const n = baseline.length;
  const m = candidate.length;
  const all = [...baseline.map((v) => ({ v, c: false })), ...candidate.map((v) => ({ v, c: true }))].sort(
    (x, y) => x.v - y.v,
  );
  const total = all.length;
  let candidateRanks = 0;
  let tieTerm = 0;
  for (let i = 0; i < total; ) {
    let j = i;
    while (j + 1 < total && (all[j + 1] as { v: number }).v === (all[i] as { v: number }).v) j += 1;
    const midrank = (i + j) / 2 + 1;
    const ties = j - i + 1;
    tieTerm += ties ** 3 - ties;
    for (let t = i; t <= j; t += 1) if ((all[t] as { c: boolean }).c) candidateRanks += midrank;
    i = j + 1;
  }
  const u = candidateRanks - (m * (m + 1)) / 2;
  const mean = (n * m) / 2;
  const variance = ((n * m) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
  if (variance <= 0) return 1;
  const z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return Math.min(1, 2 * (1 - normalCdf(z)));
}
