import { createSfc32, fraction } from "../../core/index.ts";

/** Draws in [0, 1) from the harness's seeded SFC32, so a test's samples (and a failing case) replay from its seed. */
export function seededUniform(seed: number): () => number {
  const next = createSfc32(seed, 0x5eed_0000, 0x9e37_79b9, 0);
  return () => fraction(next);
}
