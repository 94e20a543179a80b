import { describe, expect, it } from "vitest";
import { LatencyHistogram } from "../../../reporting/compare/latency-histogram.ts";

function exactQuantile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] as number;
}

describe("LatencyHistogram", () => {
  it("is empty until a sample arrives", () => {
    const histogram = new LatencyHistogram();
    expect(histogram.quantile(0.95)).toBeUndefined();
    expect(histogram.count).toBe(0);
  });

  it("gives every percentile within 2 % of the exact value, over four decades", () => {
    const samples = Array.from({ length: 5000 }, (_, i) => 0.5 * 1.0023 ** i);
    const histogram = new LatencyHistogram();
    for (const value of samples) histogram.add(value);
    const sorted = [...samples].sort((a, b) => a - b);
    for (const q of [0.5, 0.9, 0.95, 0.99]) {
      const exact = exactQuantile(sorted, q);
      expect(Math.abs((histogram.quantile(q) as number) - exact) / exact).toBeLessThan(0.02);
    }
    expect(histogram.max).toBe(sorted.at(-1));
    expect(histogram.count).toBe(5000);
  });

  it("merges exactly: two halves give what the whole gives", () => {
    const whole = new LatencyHistogram();
    const left = new LatencyHistogram();
    const right = new LatencyHistogram();
    for (let i = 0; i < 1000; i += 1) {
      const value = (i * 37) % 250;
      whole.add(value);
      (i % 2 === 0 ? left : right).add(value);
    }
    left.merge(right);
    for (const q of [0.5, 0.95, 0.99]) expect(left.quantile(q)).toBe(whole.quantile(q));
    expect(left.max).toBe(whole.max);
  });

  it("ignores values that are not durations, and never reports above the max", () => {
    const histogram = new LatencyHistogram();
    for (const value of [Number.NaN, -1, Number.POSITIVE_INFINITY]) histogram.add(value);
    expect(histogram.count).toBe(0);
    histogram.add(0);
    histogram.add(7);
    expect(histogram.quantile(1)).toBe(7);
    expect(histogram.quantile(0.1)).toBeLessThan(0.01);
  });
});
