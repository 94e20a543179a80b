import { describe, expect, it } from "vitest";
import { below, createSfc32, fraction } from "../../core/random.ts";

describe("createSfc32", () => {
  it("repeats its sequence for the same seed and differs for another", () => {
    const draw = (seed: number) => {
      const next = createSfc32(seed, 2, 3, 4);
      return Array.from({ length: 8 }, () => next());
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
    for (const value of draw(1)) expect(Number.isInteger(value) && value >= 0 && value < 2 ** 32).toBe(true);
  });
});

describe("below", () => {
  it("stays in range and reaches every value roughly evenly", () => {
    const next = createSfc32(9, 8, 7, 6);
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 70_000; i++) {
      const value = below(next, 7);
      counts[value] = (counts[value] ?? 0) + 1;
    }
    expect(counts).toHaveLength(7);
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });
});

describe("fraction", () => {
  it("scales a draw into [0, 1) and spreads it over the interval", () => {
    const next = createSfc32(5, 6, 7, 8);
    const draws = Array.from({ length: 10_000 }, () => fraction(next));
    for (const value of draws) expect(value >= 0 && value < 1).toBe(true);
    expect(fraction(() => 0)).toBe(0);
    expect(fraction(() => 2 ** 32 - 1)).toBeLessThan(1);
    const mean = draws.reduce((sum, value) => sum + value, 0) / draws.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.02);
  });
});
