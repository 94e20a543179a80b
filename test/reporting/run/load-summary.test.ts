import { describe, expect, it } from "vitest";
import { EXPIRY, METRIC } from "../../../load/index.ts";
import { renderReports } from "../../../reporting/load/index.ts";
import { renderLoadBody } from "../../../reporting/run/html-load.ts";
import { digestLoadSummary } from "../../../reporting/run/index.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

describe("digestLoadSummary", () => {
  it("reads figures, judging thresholds (failures first) and the sliding-expiry verdict", () => {
    const summary = digestLoadSummary({
      state: { testRunDurationMs: 10_000 },
      metrics: {
        events_failed: {
          type: "rate",
          values: { rate: 0.1, passes: 2, fails: 18 },
          thresholds: { "rate<0.01": { ok: false } },
        },
        "http_req_duration{endpoint:events}": {
          type: "trend",
          contains: "time",
          values: { med: 2, "p(95)": 1500, max: 2000 },
          thresholds: { "p(95)<500": { ok: false }, "count>=0": { ok: true } },
        },
        "token_requests{reason:idle,outcome:issued}": { type: "counter", values: { count: 3 } },
        "token_requests{reason:rejected,outcome:issued}": { type: "counter", values: { count: 1 } },
        "token_requests{outcome:failed}": { type: "counter", values: { count: 2 } },
        "token_expiries{kind:outlived}": {
          type: "counter",
          values: { count: 0 },
          thresholds: { "count==0": { ok: true } },
        },
      },
      harness: {
        verdict: { level: "held", reasons: ["fine", 3] },
        context: { scenario: "sustained", rate: 20, secret: "x" },
      },
    });
    expect(summary?.facts).toMatchObject({
      runSeconds: 10,
      loadSeconds: 10,
      eventsAccepted: 18,
      eventsRejected: 2,
      acceptedPerSecond: 1.8,
      errorRate: 0.1,
      tokenRefreshes: 4,
      tokenFailures: 2,
      eventLatency: [
        ["med", 2],
        ["p(95)", 1500],
        ["max", 2000],
      ],
    });
    expect(summary?.thresholds.map((t) => [t.metric, t.expression, t.ok, t.observed])).toEqual([
      ["events_failed", "rate<0.01", false, "rate=10%"],
      ["http_req_duration{endpoint:events}", "p(95)<500", false, "p(95)=1500ms"],
      ["token_expiries{kind:outlived}", "count==0", true, "count=0"],
    ]);
    expect(summary?.slidingExpiry).toEqual({ level: "held", reasons: ["fine"] });
    expect(summary?.context).toEqual({ scenario: "sustained", rate: 20 });
  });

  it("yields nothing for something that is not a k6 summary, and zeros for missing metrics", () => {
    expect(digestLoadSummary(undefined)).toBeUndefined();
    expect(digestLoadSummary({ metrics: [] })).toBeUndefined();
    expect(digestLoadSummary({ metrics: { events_failed: "nope" } })?.facts.eventsAccepted).toBe(0);
  });

  it("gives the run report the load command's own facts, rates after the token warm-up included", () => {
    const rendered = renderReports(
      {
        state: { testRunDurationMs: 12_000 },
        metrics: {
          [METRIC.eventsFailed]: {
            type: "rate",
            contains: "default",
            values: { rate: 0.05, passes: 10, fails: 190 },
          },
          [METRIC.tokenRequests]: { type: "counter", contains: "default", values: { count: 5 } },
          [EXPIRY.unexpected]: { type: "counter", contains: "default", values: { count: 1 } },
        },
      },
      sustainedReportContext,
    );
    const digested = digestLoadSummary(JSON.parse(rendered.summaryJson));
    expect(digested?.facts).toEqual(rendered.input.facts);
    expect(digested?.facts).toMatchObject({ warmUpSeconds: 2, loadSeconds: 10, acceptedPerSecond: 19 });
  });

  it("carries a generator-limited run's signals to the HTML report, escaped", () => {
    const rendered = renderReports(
      {
        state: { testRunDurationMs: 12_000 },
        metrics: {
          [METRIC.eventsFailed]: {
            type: "rate",
            contains: "default",
            values: { rate: 0, passes: 0, fails: 190 },
          },
          dropped_iterations: {
            type: "counter",
            contains: "default",
            values: { count: 50 },
            thresholds: { "count<=2": { ok: false } },
          },
        },
      },
      {
        ...sustainedReportContext,
        arrivals: { peakRate: 20, maxVus: 10 },
        generator: {
          cpu: { cpus: 1, meanShare: 0.95, busiestShare: 0.99, seconds: 10, processes: 1 },
          insufficientVus: 0,
        },
      },
    );
    const digested = digestLoadSummary(JSON.parse(rendered.summaryJson));
    expect(digested?.generator?.limited).toBe(true);
    expect(digested?.generator?.signals[0]).toContain("k6 used 99 % of the 1 CPU it may run on");
    const html = renderLoadBody({
      outcome: {
        id: "load-sustained",
        kind: "load",
        title: "Load",
        verdict: "undecided",
        exitCode: 3,
        durationMs: 1,
      },
      files: [],
      ...(digested === undefined ? {} : { load: digested }),
    } as unknown as Parameters<typeof renderLoadBody>[0]);
    expect(html).toContain("The generator, not the API, limited this run:");
    expect(html).toContain("<li>k6 used 99 % of the 1 CPU it may run on");
    // A run that failed anyway, on what no generator explains, is not said to be k6's.
    const failed = renderLoadBody({
      outcome: {
        id: "load-sustained",
        kind: "load",
        title: "Load",
        verdict: "failed",
        exitCode: 1,
        durationMs: 1,
      },
      files: [],
      ...(digested === undefined ? {} : { load: digested }),
    } as unknown as Parameters<typeof renderLoadBody>[0]);
    expect(failed).toContain(
      "<strong>k6 was at its own limit too:</strong> the run failed on what no load generator explains",
    );
    expect(failed).not.toContain("not the API");
    expect(failed).toContain("<li>k6 used 99 % of the 1 CPU it may run on");
  });
});
