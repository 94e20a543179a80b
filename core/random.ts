/** A source of uniformly distributed 32-bit unsigned integers. */
export type NextUint32 = () => number;

/**
 * SFC32 (Chris Doty-Humphrey's Small Fast Chaotic generator), seeded with four 32-bit words.
 * Per-event choices use it instead of faker calls because it costs a few nanoseconds and is fully reproducible.
 */
export function createSfc32(a: number, b: number, c: number, d: number): NextUint32 {
  let s0 = a >>> 0;
  let s1 = b >>> 0;
  let s2 = c >>> 0;
  let counter = d >>> 0;
  const next = (): number => {
    const t = (((s0 + s1) | 0) + counter) | 0;
    counter = (counter + 1) | 0;
    s0 = s1 ^ (s1 >>> 9);
    s1 = (s2 + (s2 << 3)) | 0;
    s2 = (s2 << 21) | (s2 >>> 11);
    s2 = (s2 + t) | 0;
    return t >>> 0;
  };
  // The first outputs are poorly mixed for similar seeds, so they are discarded.
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** A draw scaled to [0, 1), for seeded samples of continuous distributions. */
export function fraction(next: NextUint32): number {
  return next() / 4_294_967_296;
}

/** An integer in [0, bound) by scaling a 32-bit draw; its bias (at most bound / 2^32) is negligible for pool sizes. */
export function below(next: NextUint32, bound: number): number {
  return Math.floor(fraction(next) * bound);
}
