import { describe, expect, it } from "vitest";
import { formatNumber, niceStep, niceTicks, timeTicks } from "../../../reporting/run/chart-scale.ts";

describe("niceStep", () => {
  it("rounds the raw step up to 1, 2, 2.5, 5 or 10 times a power of ten", () => {
    expect(niceStep(10, 10)).toBe(1);
    expect(niceStep(15, 10)).toBe(2);
    expect(niceStep(24, 10)).toBe(2.5);
    expect(niceStep(26, 10)).toBe(5);
    expect(niceStep(60, 10)).toBe(10);
    expect(niceStep(3000, 4)).toBe(1000);
    expect(niceStep(0.03, 4)).toBeCloseTo(0.01, 12);
  });

  it("falls back to 1 for an empty or invalid range or count", () => {
    expect(niceStep(0, 4)).toBe(1);
    expect(niceStep(-5, 4)).toBe(1);
    expect(niceStep(Number.NaN, 4)).toBe(1);
    expect(niceStep(10, 0)).toBe(1);
  });
});

describe("niceTicks", () => {
  it("ends at or past the maximum, and never holds float noise", () => {
    expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(101)).toEqual([0, 50, 100, 150]);
    expect(niceTicks(0.3, 3)).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it("uses whole steps for counts, at least 1", () => {
    expect(niceTicks(1, 4, true)).toEqual([0, 1]);
    expect(niceTicks(3, 4, true)).toEqual([0, 1, 2, 3]);
  });

  it("draws an axis of 0 to 1 for a maximum that is not positive", () => {
    expect(niceTicks(-3)).toEqual(niceTicks(1));
  });
});

describe("timeTicks", () => {
  it("picks the first human step that fits the count", () => {
    expect(timeTicks(6)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(timeTicks(7)).toEqual([0, 2, 4, 6]);
    expect(timeTicks(120)).toEqual([0, 30, 60, 90, 120]);
  });

  it("steps by whole days past the longest human step", () => {
    expect(timeTicks(86_400 * 12)).toEqual([0, 2, 4, 6, 8, 10, 12].map((d) => d * 86_400));
  });

  it("gives the start alone for a run of no time", () => {
    expect(timeTicks(0)).toEqual([0]);
  });
});

describe("formatNumber", () => {
  it("writes short labels: k above a thousand, fewer decimals as numbers grow", () => {
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(0.123)).toBe("0.12");
    expect(formatNumber(9.876)).toBe("9.88");
    expect(formatNumber(12.34)).toBe("12.3");
    expect(formatNumber(123.4)).toBe("123");
    expect(formatNumber(1234)).toBe("1.2k");
    expect(formatNumber(9999)).toBe("10k");
    expect(formatNumber(12_345)).toBe("12k");
    expect(formatNumber(-1500)).toBe("-1.5k");
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
  });
});
