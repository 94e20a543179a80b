import { describe, expect, it } from "vitest";
import type { TimeSeries } from "../../../reporting/run/index.ts";
import { ratePerSecond, TIME_SERIES_FORMAT } from "../../../reporting/run/index.ts";
import { countsByPrefix, sumSeries, total } from "../../../reporting/run/time-series.ts";

const series = (
  stepSeconds: number,
  lastStepSeconds: number,
  counts: TimeSeries["counts"] = {},
): TimeSeries => ({
  format: TIME_SERIES_FORMAT,
  startedAt: 0,
  stepSeconds,
  length: 3,
  lastStepSeconds,
  counts,
  latency: {},
  gauges: {},
});

describe("total", () => {
  it("sums a count series, 0 for one the run never produced", () => {
    const s = series(1, 1, { "events.accepted": [1, 2, 3] });
    expect(total(s, "events.accepted")).toBe(6);
    expect(total(s, "events.failed")).toBe(0);
  });
});

describe("countsByPrefix", () => {
  it("gives the series under a prefix by the rest of their key, sorted, and nothing that merely starts alike", () => {
    const s = series(1, 1, {
      "token.refreshes.lifetime": [1, 0, 0],
      "token.refreshes.idle": [0, 1, 0],
      "token.refreshesTotal": [9, 9, 9],
      "token.requests.initial": [1, 0, 0],
    });
    expect(countsByPrefix(s, "token.refreshes")).toEqual([
      ["idle", [0, 1, 0]],
      ["lifetime", [1, 0, 0]],
    ]);
    expect(countsByPrefix(s, "events")).toEqual([]);
  });
});

describe("ratePerSecond", () => {
  it("divides each step's count by the step's length, to two decimals", () => {
    expect(ratePerSecond(series(5, 5), [10, 7, 1])).toEqual([2, 1.4, 0.2]);
    expect(ratePerSecond(series(3, 3), [1, 0, 0])).toEqual([0.33, 0, 0]);
  });

  it("divides a last step covering at least half a step by its own length: no false dip at a steady run's end", () => {
    expect(ratePerSecond(series(10, 5), [100, 100, 50])).toEqual([10, 10, 10]);
  });

  it("divides a last step shorter than half a step by a whole step, so a final burst is not inflated", () => {
    expect(ratePerSecond(series(10, 4), [100, 100, 40])).toEqual([10, 10, 4]);
  });
});

describe("sumSeries", () => {
  it("adds series element by element, a shorter one counting as zeros, to the length asked", () => {
    expect(sumSeries(3, [[1, 2, 3], [10, 20], []])).toEqual([11, 22, 3]);
    expect(sumSeries(2, [])).toEqual([0, 0]);
    expect(sumSeries(0, [[1]])).toEqual([]);
  });
});
