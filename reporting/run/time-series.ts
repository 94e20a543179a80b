/** Marks the file format, so a reader can tell a stale or foreign timeseries.json from this one. */
export const TIME_SERIES_FORMAT = "event-api-harness/timeseries@1";

export interface LatencySeries {
  readonly p50: ReadonlyArray<number | null>;
  readonly p95: ReadonlyArray<number | null>;
  readonly p99: ReadonlyArray<number | null>;
  readonly max: ReadonlyArray<number | null>;
}

/**
 * A load run as columns over time, one value per step (1 s, coarser for long runs so a chart never gets more than a
 * few hundred points). Holds counts and durations only: no URL, header or body, so nothing in it can be secret.
 */
export interface TimeSeries {
  readonly format: typeof TIME_SERIES_FORMAT;
  /** Unix ms at which the first step starts. */
  readonly startedAt: number;
  readonly stepSeconds: number;
  readonly length: number;
  /**
   * Seconds the last step covers: the run rarely ends on a step boundary, so a rate over that step divides by
   * this, not by stepSeconds. Equals stepSeconds when k6 gave whole-second timestamps (coverage unknown).
   */
  readonly lastStepSeconds: number;
  /**
   * Samples per step: `events.accepted`, `events.failed`, `requests.events`, `requests.token`,
   * `token.requests.<reason>`, `token.refreshes.<reason>`, `token.idle-expiries`, `token.unexpected-expiries`,
   * `token.idle-outlived`, `token.request-failures`, `events.rejected.<status>`, `iterations.dropped`.
   */
  readonly counts: Readonly<Record<string, readonly number[]>>;
  /** Request durations in ms per step (`events`, `token`); null where a step had no request. */
  readonly latency: Readonly<Record<string, LatencySeries>>;
  /** Highest gauge value per step (`vus`); null where k6 sent none. */
  readonly gauges: Readonly<Record<string, ReadonlyArray<number | null>>>;
}

/** Sum of a count series, 0 when the run never produced it. */
export function total(series: TimeSeries, key: string): number {
  return (series.counts[key] ?? []).reduce((sum, value) => sum + value, 0);
}

/** The count series whose key starts with `prefix.`, by the rest of the key (e.g. refreshes by reason). */
export function countsByPrefix(series: TimeSeries, prefix: string): Array<[string, readonly number[]]> {
  return Object.entries(series.counts)
    .filter(([key]) => key.startsWith(`${prefix}.`))
    .map(([key, values]): [string, readonly number[]] => [key.slice(prefix.length + 1), values])
    .sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Counts per step as rates per second. A last step that covers at least half a step is divided by its own length
 * (no false dip at the end of a steady run); a shorter one by a whole step, so a final burst is not inflated.
 */
export function ratePerSecond(series: TimeSeries, values: readonly number[]): number[] {
  return values.map((value, i) => {
    const last = i === series.length - 1 && series.lastStepSeconds >= series.stepSeconds / 2;
    return Math.round((value / (last ? series.lastStepSeconds : series.stepSeconds)) * 100) / 100;
  });
}

/** Element-wise sum of several count series of the same length. */
export function sumSeries(length: number, parts: ReadonlyArray<readonly number[]>): number[] {
  const out = new Array<number>(length).fill(0);
  for (const part of parts) for (let i = 0; i < length; i += 1) out[i] = (out[i] ?? 0) + (part[i] ?? 0);
  return out;
}
