/** Bucket width as a ratio: 2 % relative error on any percentile, whatever the range. */
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);
/** Durations below this (ms) share bucket 0; k6 reports microsecond resolution at best. */
const FLOOR_MS = 0.01;

/**
 * A log-bucketed histogram of durations: memory stays bounded (a few hundred buckets) however many samples a second
 * holds, and histograms of adjacent seconds merge exactly when a long run is drawn at a coarser step.
 */
export class LatencyHistogram {
  readonly #buckets = new Map<number, number>();
  #count = 0;
  #max = 0;

  get count(): number {
    return this.#count;
  }

  get max(): number {
    return this.#max;
  }

  add(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const index = ms < FLOOR_MS ? 0 : Math.floor(Math.log(ms / FLOOR_MS) / LOG_GROWTH) + 1;
    this.#buckets.set(index, (this.#buckets.get(index) ?? 0) + 1);
    this.#count += 1;
    if (ms > this.#max) this.#max = ms;
  }

  /** The buckets as [index, count] pairs, for a file another run's histogram is merged with or compared to. */
  entries(): [number, number][] {
    return [...this.#buckets.entries()].sort((a, b) => a[0] - b[0]);
  }

  /** A histogram read back from `entries()` and its max. */
  static fromEntries(entries: readonly (readonly [number, number])[], max: number): LatencyHistogram {
    const histogram = new LatencyHistogram();
    for (const [index, n] of entries) {
      histogram.#buckets.set(index, (histogram.#buckets.get(index) ?? 0) + n);
      histogram.#count += n;
    }
    histogram.#max = max;
    return histogram;
  }

  merge(other: LatencyHistogram): void {
    for (const [index, n] of other.#buckets) this.#buckets.set(index, (this.#buckets.get(index) ?? 0) + n);
    this.#count += other.#count;
    if (other.#max > this.#max) this.#max = other.#max;
  }

  /** The q-quantile (0–1) in ms, at the bucket's geometric middle (never above the exact max); undefined when empty. */
  quantile(q: number): number | undefined {
    if (this.#count === 0) return undefined;
    if (q >= 1) return this.#max;
    const rank = Math.max(1, Math.ceil(q * this.#count));
    let seen = 0;
    for (const index of [...this.#buckets.keys()].sort((a, b) => a - b)) {
      seen += this.#buckets.get(index) ?? 0;
      if (seen >= rank) {
        const value = index === 0 ? FLOOR_MS / 2 : FLOOR_MS * GROWTH ** (index - 0.5);
        return Math.min(value, this.#max);
      }
    }
    return this.#max;
  }
}
