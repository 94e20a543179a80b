import { describe, expect, it } from "vitest";
import type { SummaryData } from "../../../reporting/load/index.ts";
import { mergeSummaries, trendKeys } from "../../../reporting/load/index.ts";

const LATENCY = "http_req_duration{endpoint:events}";

/** Two instances side by side: the first ran 10 s, the second 8 s. */
const first: SummaryData = {
  state: { testRunDurationMs: 10_000 },
  metrics: {
    token_requests: { type: "counter", contains: "default", values: { count: 30, rate: 3 } },
    events_failed: {
      type: "rate",
      contains: "default",
      values: { rate: 0, passes: 0, fails: 90 },
      thresholds: { "rate<0.01": { ok: true } },
    },
    vus: { type: "gauge", contains: "default", values: { value: 4, min: 1, max: 5 } },
    [LATENCY]: {
      type: "trend",
      contains: "time",
      values: { avg: 1, "p(95)": 1 },
      thresholds: { "p(95)<4": { ok: true } },
    },
  },
};
const second: SummaryData = {
  state: { testRunDurationMs: 8000 },
  metrics: {
    token_requests: { type: "counter", contains: "default", values: { count: 20, rate: 2.5 } },
    events_failed: {
      type: "rate",
      contains: "default",
      values: { rate: 0.1, passes: 10, fails: 90 },
      thresholds: { "rate<0.01": { ok: false }, "not an expression": { ok: true } },
    },
    vus: { type: "gauge", contains: "default", values: { value: 3, min: 2, max: 3 } },
    "redirects{endpoint:events}": { type: "counter", contains: "default", values: { count: 1, rate: 0.125 } },
  },
};
/** The pooled event latency samples of both, sorted: 1 … 10 ms. */
const samples = new Map([[LATENCY, Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])]]);

describe("mergeSummaries", () => {
  const merged = mergeSummaries([first, second], samples);

  it("adds counters, with their rate over the longest instance's duration", () => {
    expect(merged.state).toEqual({ testRunDurationMs: 10_000 });
    expect(merged.metrics.token_requests).toEqual({
      type: "counter",
      contains: "default",
      values: { count: 50, rate: 5 },
    });
    expect(merged.metrics["redirects{endpoint:events}"]?.values).toEqual({ count: 1, rate: 0.1 });
  });

  it("adds a rate's passes and fails and judges its threshold on the sum", () => {
    expect(merged.metrics.events_failed?.values).toEqual({ passes: 10, fails: 180, rate: 10 / 190 });
    expect(merged.metrics.events_failed?.thresholds?.["rate<0.01"]).toEqual({ ok: false });
  });

  it("fails a threshold it cannot evaluate rather than passing it", () => {
    expect(merged.metrics.events_failed?.thresholds?.["not an expression"]).toEqual({ ok: false });
  });

  it("adds gauges, since the instances ran side by side", () => {
    expect(merged.metrics.vus?.values).toEqual({ value: 7, min: 3, max: 8 });
  });

  it("states a trend's statistics from the pooled samples and judges its threshold on them", () => {
    const values = merged.metrics[LATENCY]?.values ?? {};
    expect(Object.keys(values).sort()).toEqual([
      "avg",
      "count",
      "max",
      "med",
      "min",
      "p(90)",
      "p(95)",
      "p(99)",
    ]);
    expect(values).toMatchObject({ count: 10, avg: 5.5, min: 1, med: 5.5, max: 10 });
    // Interpolated between the closest ranks: p(90) at rank 8.1 of 0…9 lies a tenth of the way from 9 to 10.
    expect(values["p(90)"]).toBeCloseTo(9.1, 9);
    expect(values["p(95)"]).toBeCloseTo(9.55, 9);
    expect(values["p(99)"]).toBeCloseTo(9.91, 9);
    // One instance alone read p(95)=1, which held; the whole run's 9.55 does not.
    expect(merged.metrics[LATENCY]?.thresholds).toEqual({ "p(95)<4": { ok: false } });
  });

  it("gives a trend without samples zero statistics, and a metric no threshold names no thresholds", () => {
    const empty = mergeSummaries([first], new Map());
    expect(empty.metrics[LATENCY]?.values).toMatchObject({
      count: 0,
      avg: 0,
      min: 0,
      max: 0,
      med: 0,
      "p(95)": 0,
    });
    expect(empty.metrics[LATENCY]?.thresholds).toEqual({ "p(95)<4": { ok: true } });
    expect(empty.metrics.token_requests && "thresholds" in empty.metrics.token_requests).toBe(false);
  });

  it("merges no summary into an empty one", () => {
    expect(mergeSummaries([], new Map())).toEqual({ metrics: {}, state: { testRunDurationMs: 0 } });
  });
});

describe("trendKeys", () => {
  it("names each trend metric of any summary once, sorted", () => {
    const other: SummaryData = {
      metrics: {
        [LATENCY]: { type: "trend", contains: "time", values: {} },
        "http_req_duration{endpoint:token}": { type: "trend", contains: "time", values: {} },
      },
    };
    expect(trendKeys([first, second, other])).toEqual([LATENCY, "http_req_duration{endpoint:token}"]);
    expect(trendKeys([])).toEqual([]);
  });
});
