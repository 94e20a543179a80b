import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { formatDuration, formatDurationCompact, splitDuration } from "../../core/index.ts";
import { parseDurationSeconds } from "../../load/index.ts";

describe("formatDuration", () => {
  it.each([
    [0, "0 ms"],
    [0.4, "0 ms"],
    [40, "40 ms"],
    [40.5, "41 ms"],
    [999.4, "999 ms"],
    // Rounds up into the next unit, never "1000 ms".
    [999.6, "1.0 s"],
    [1_000, "1.0 s"],
    [1_049, "1.0 s"],
    [8_000, "8.0 s"],
    [12_345, "12.3 s"],
    [59_940, "59.9 s"],
    // Never "60.0 s".
    [59_960, "1 min 0 s"],
    [60_000, "1 min 0 s"],
    [125_400, "2 min 5 s"],
    [3_599_400, "59 min 59 s"],
    // Never "60 min 0 s".
    [3_599_900, "1 h 0 min"],
    [3_600_000, "1 h 0 min"],
    [3_720_000, "1 h 2 min"],
    [90_000_000, "25 h 0 min"],
  ])("%d ms is %j", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("shows no duration as a dash and clamps a negative one to zero", () => {
    expect([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY].map(formatDuration)).toEqual([
      "–",
      "–",
      "–",
    ]);
    expect([-1, -5_000].map(formatDuration)).toEqual(["0 ms", "0 ms"]);
  });
});

describe("formatDurationCompact", () => {
  it.each([
    [0, "0s"],
    [0.4, "0s"],
    [500, "500ms"],
    [999.4, "999ms"],
    [999.6, "1s"],
    [45_000, "45s"],
    [59_400, "59s"],
    [59_960, "1m"],
    [90_000, "1m30s"],
    [245_000, "4m5s"],
    [300_000, "5m"],
    [1_800_000, "30m"],
    [3_599_900, "1h"],
    [3_660_000, "1h1m"],
    [5_400_000, "1h30m"],
  ])("%d ms is %j", (ms, text) => {
    expect(formatDurationCompact(ms)).toBe(text);
  });

  it("shows no duration as a dash and clamps a negative one to zero", () => {
    expect([Number.NaN, -1].map(formatDurationCompact)).toEqual(["–", "0s"]);
  });

  it("writes what k6 and --duration read back as the same duration, to its rounding", () => {
    for (const ms of [250, 1_000, 45_000, 90_000, 1_800_000, 3_660_000, 7_200_000]) {
      expect((parseDurationSeconds(formatDurationCompact(ms)) ?? Number.NaN) * 1000).toBe(ms);
    }
  });
});

describe("splitDuration", () => {
  it("rounds to the largest unit's resolution before choosing the unit", () => {
    expect(splitDuration(999.6, 100)).toEqual({ unit: "s", major: 1, minor: 0 });
    expect(splitDuration(59_960, 100)).toEqual({ unit: "min", major: 1, minor: 0 });
    expect(splitDuration(59_940, 100)).toEqual({ unit: "s", major: 59.9, minor: 0 });
    expect(splitDuration(59_940, 1000)).toEqual({ unit: "min", major: 1, minor: 0 });
    expect(splitDuration(3_599_900, 100)).toEqual({ unit: "h", major: 1, minor: 0 });
    expect(splitDuration(Number.NaN, 100)).toEqual({ unit: "ms", major: 0, minor: 0 });
  });

  it("needs nothing around it, so the run report's script can carry the compact formatter's source", () => {
    const source = `${splitDuration.toString()}\n${formatDurationCompact.toString()}`;
    const inBrowser = runInNewContext(
      `${source}\n[45000, 245000, 3660000].map(${formatDurationCompact.name})`,
    );
    expect(Array.from(inBrowser as string[])).toEqual(["45s", "4m5s", "1h1m"]);
  });
});
