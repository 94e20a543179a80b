import { describe, expect, it } from "vitest";
import { normalCdf, normalQuantile } from "../../../reporting/compare/normal-distribution.ts";

// Reference values of the standard normal distribution (to 9 digits), as printed in statistical tables.
const TABLE: ReadonlyArray<readonly [z: number, p: number]> = [
  [-3, 0.001349898],
  [-1.959963985, 0.025],
  [-1, 0.158655254],
  [0, 0.5],
  [0.5, 0.691462461],
  [1.644853627, 0.95],
  [2.326347874, 0.99],
  [3.090232306, 0.999],
];

describe("normalCdf", () => {
  it("matches the table within the approximation's 1.5e-7", () => {
    for (const [z, p] of TABLE) expect(Math.abs(normalCdf(z) - p)).toBeLessThan(1.5e-7);
  });

  it("is symmetric about 0 and tends to 0 and 1 in the tails", () => {
    for (const z of [0.3, 1.2, 2.7]) expect(normalCdf(z) + normalCdf(-z)).toBeCloseTo(1, 12);
    expect(normalCdf(-40)).toBeCloseTo(0, 12);
    expect(normalCdf(40)).toBeCloseTo(1, 12);
  });
});

describe("normalQuantile", () => {
  it("matches the table within 1e-8 relative, in the centre and both tails", () => {
    for (const [z, p] of TABLE) {
      if (z === 0) expect(Math.abs(normalQuantile(p))).toBeLessThan(1e-12);
      else expect(Math.abs((normalQuantile(p) - z) / z)).toBeLessThan(1e-8);
    }
  });

  it("joins its three pieces without a step at the tails' edges", () => {
    for (const edge of [0.02425, 1 - 0.02425]) {
      expect(Math.abs(normalQuantile(edge - 1e-12) - normalQuantile(edge + 1e-12))).toBeLessThan(1e-6);
    }
  });

  it("refuses a probability outside (0, 1)", () => {
    for (const p of [0, 1, -0.1, 1.5, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});
