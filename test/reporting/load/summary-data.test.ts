import { describe, expect, it } from "vitest";
import type { SummaryData, SummaryMetric } from "../../../reporting/load/index.ts";
import { thresholdResults } from "../../../reporting/load/index.ts";
import {
  count,
  expressionStat,
  formatThresholdValue,
  metricValue,
  round,
} from "../../../reporting/load/summary-data.ts";

const latency: SummaryMetric = { type: "trend", contains: "time", values: { "p(95)": 500.004, count: 5 } };
const failures: SummaryMetric = { type: "rate", contains: "default", values: { rate: 0.0123 } };
const tokens: SummaryMetric = { type: "counter", contains: "default", values: { count: 7 } };

describe("metricValue and count", () => {
  const data: SummaryData = { metrics: { token_requests: tokens } };

  it("read a statistic, undefined or 0 where k6 never saw the metric", () => {
    expect(metricValue(data, "token_requests", "count")).toBe(7);
    expect(metricValue(data, "token_requests", "rate")).toBeUndefined();
    expect(metricValue(data, "redirects", "count")).toBeUndefined();
    expect(count(data, "token_requests")).toBe(7);
    expect(count(data, "redirects")).toBe(0);
  });
});

describe("round", () => {
  it("keeps two decimals at most", () => {
    expect(round(2.345678)).toBe(2.35);
    expect(round(-1.234)).toBe(-1.23);
    expect(round(19.7)).toBe(19.7);
    expect(round(0)).toBe(0);
  });
});

describe("expressionStat", () => {
  it("names the statistic an expression tests", () => {
    expect(expressionStat("p(95)<500")).toBe("p(95)");
    expect(expressionStat("p(99.9) < 2")).toBe("p(99.9)");
    expect(expressionStat(" rate<0.01")).toBe("rate");
    expect(expressionStat("count==0")).toBe("count");
    expect(expressionStat("<5")).toBe("");
    expect(expressionStat("")).toBe("");
  });
});

describe("formatThresholdValue", () => {
  it("writes time in ms with two decimals where they read as k6 judged", () => {
    expect(formatThresholdValue(latency, "p(95)<=500", true, 499.996)).toBe("500ms");
    expect(formatThresholdValue(latency, "p(95)<600", false, 612.3456)).toBe("612.35ms");
  });

  it("adds the decimals a failure needs so it never reads as a pass", () => {
    expect(formatThresholdValue(latency, "p(95)<=500", false, 500.0041)).toBe("500.004ms");
    expect(formatThresholdValue(latency, "p(95)<=500", false, 500.00000007)).toBe("500.00000007ms");
  });

  it("writes a rate in percent, and a count of a time metric without a unit", () => {
    expect(formatThresholdValue(failures, "rate<0.01", false, 0.0123)).toBe("1.23%");
    expect(formatThresholdValue(failures, "rate<0.01", false, 0.010001)).toBe("1%");
    expect(formatThresholdValue(latency, "count>=6", false, 5)).toBe("5");
    expect(formatThresholdValue(undefined, "count==0", false, 3)).toBe("3");
  });

  it("takes two decimals for an expression it cannot evaluate", () => {
    expect(formatThresholdValue(tokens, "count ~ 5", false, 1.23456)).toBe("1.23");
  });
});

describe("thresholdResults", () => {
  it("lists failures first, then by metric, with what was observed, and leaves observation-only ones out", () => {
    const data: SummaryData = {
      metrics: {
        token_requests: { ...tokens, thresholds: { "count>=0": { ok: true }, "count<5": { ok: false } } },
        events_failed: { ...failures, thresholds: { "rate<0.05": { ok: true }, "rate>=0": { ok: true } } },
        "http_req_duration{endpoint:events}": {
          ...latency,
          thresholds: { "p(95)<=500": { ok: false }, "min>=0": { ok: true }, "p(99)<900": { ok: true } },
        },
      },
    };
    expect(thresholdResults(data)).toEqual([
      {
        metric: "http_req_duration{endpoint:events}",
        expression: "p(95)<=500",
        ok: false,
        observed: "p(95)=500.004ms",
      },
      { metric: "token_requests", expression: "count<5", ok: false, observed: "count=7" },
      { metric: "events_failed", expression: "rate<0.05", ok: true, observed: "rate=1.23%" },
      {
        metric: "http_req_duration{endpoint:events}",
        expression: "p(99)<900",
        ok: true,
        observed: undefined,
      },
    ]);
    expect(thresholdResults({ metrics: {} })).toEqual([]);
  });
});
