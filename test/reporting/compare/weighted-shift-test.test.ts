import { describe, expect, it } from "vitest";
import { normalCdf, normalQuantile } from "../../../reporting/compare/normal-distribution.ts";
import type { WeightedSample } from "../../../reporting/compare/shift-test.ts";
import { shiftTest, weightedSample } from "../../../reporting/compare/shift-test.ts";
import { seededUniform } from "../../support/seeded-uniform.ts";

/** Every observation spelled out: the sample as the textbook takes it. */
function expand(sample: WeightedSample): number[] {
  const out: number[] = [];
  sample.values.forEach((value, i) => {
    for (let k = 0; k < (sample.weights[i] as number); k += 1) out.push(value);
  });
  return out;
}

/** The oracle: every one of the n·m differences listed and sorted, the midrank U test over the pooled list. */
function bruteForce(base: readonly number[], candidate: readonly number[], confidence = 0.95) {
  const n = base.length;
  const m = candidate.length;
  const differences = candidate.flatMap((c) => base.map((b) => c - b)).sort((x, y) => x - y);
  const nm = differences.length;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const rank = Math.floor(nm / 2 - z * Math.sqrt((nm * (n + m + 1)) / 12));
  const at = (k: number) => differences[k - 1] as number;
  const estimate = nm % 2 === 1 ? at((nm + 1) / 2) : (at(nm / 2) + at(nm / 2 + 1)) / 2;
  const pooled = [...base.map((v) => ({ v, c: 0 })), ...candidate.map((v) => ({ v, c: 1 }))].sort(
    (x, y) => x.v - y.v,
  );
  let ranks = 0;
  let ties = 0;
  for (let i = 0; i < pooled.length; ) {
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1]?.v === pooled[i]?.v) j += 1;
    const t = j - i + 1;
    ties += t ** 3 - t;
    for (let k = i; k <= j; k += 1) ranks += (pooled[k]?.c ?? 0) * ((i + j) / 2 + 1);
    i = j + 1;
  }
  const u = ranks - (m * (m + 1)) / 2;
  const total = n + m;
  const variance = ((n * m) / 12) * (total + 1 - ties / (total * (total - 1)));
  const pValue = Math.min(
    1,
    2 * (1 - normalCdf(Math.max(0, Math.abs(u - (n * m) / 2) - 0.5) / Math.sqrt(variance))),
  );
  return { estimate, low: at(rank), high: at(nm - rank + 1), pValue };
}

/** A histogram-like sample: few distinct values (so ties abound), each with a small count. */
function randomSample(random: () => number, buckets: number, offset: number): WeightedSample {
  return weightedSample(
    Array.from({ length: buckets }, () => [
      Math.round((offset + 10 * random()) * 4) / 4,
      1 + Math.floor(random() * 5),
    ]),
  );
}

describe("shiftTest over weighted samples", () => {
  it("equals the estimate, interval and p-value of every difference listed, on 300 seeded pairs with ties", () => {
    const random = seededUniform(35);
    for (let round = 0; round < 300; round += 1) {
      const base = randomSample(random, 2 + Math.floor(random() * 12), 20);
      const candidate = randomSample(random, 2 + Math.floor(random() * 12), 20 + 6 * random() - 2);
      const expected = bruteForce(expand(base), expand(candidate));
      const actual = shiftTest(base, candidate);
      if (base.count < 5 || candidate.count < 5) continue;
      expect(actual, `round ${round}`).toBeDefined();
      expect(actual?.estimate, `round ${round}`).toBe(expected.estimate);
      expect(actual?.low, `round ${round}`).toBe(expected.low);
      expect(actual?.high, `round ${round}`).toBe(expected.high);
      expect(actual?.pValue, `round ${round}`).toBeCloseTo(expected.pValue, 9);
    }
  });

  it("takes a count as many observations: one bucket of a billion is a sample of a billion, not a billion numbers", () => {
    const base = weightedSample([[20, 1e9]]);
    const candidate = weightedSample([
      [20, 5e8],
      [30, 5e8],
    ]);
    const result = shiftTest(base, candidate);
    expect(result?.baselineCount).toBe(1e9);
    expect(result?.low).toBe(0);
    expect(result?.high).toBe(10);
    expect(result?.pValue).toBeLessThan(1e-6);
  });
});
