/** Bucket width as a ratio: 2 % relative error on any percentile, whatever the range. */
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);
/** Durations below this (ms) share bucket 0; k6 reports microsecond resolution at best. */
const FLOOR_MS = 0.01;
/** A day: no request of a run lasts longer, so a bucket above it is no duration (a record's index is checked against it). */
const LONGEST_MS = 86_400_000;

/** The value a bucket stands for (ms): its geometric middle; bucket 0 holds everything below the floor. */
export function bucketMiddle(index: number): number {
  return index === 0 ? FLOOR_MS / 2 : FLOOR_MS * GROWTH ** (index - 0.5);
}

/** The bucket a duration falls in. */
function bucketOf(ms: number): number {
  return ms < FLOOR_MS ? 0 : Math.floor(Math.log(ms / FLOOR_MS) / LOG_GROWTH) + 1;
}

/** The highest bucket index of a duration up to a day. */
export const MAX_BUCKET_INDEX = bucketOf(LONGEST_MS);

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
    const index = bucketOf(ms);
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
        return Math.min(bucketMiddle(index), this.#max);
      }
    }
    return this.#max;
  }
}
