import { describe, expect, it } from "vitest";
import type { SummaryData } from "../../../reporting/load/index.ts";
import { instanceTotals, reportFacts } from "../../../reporting/load/index.ts";

type Metric = SummaryData["metrics"][string];

// Metric names written out as k6 reports them, not taken from the harness's constants.
const counter = (count: number): Metric => ({
  type: "counter",
  contains: "default",
  values: { count, rate: 0 },
});
const trend = (values: Record<string, number>): Metric => ({ type: "trend", contains: "time", values });

/** A sustained run of 12 s after a 2 s warm-up: 190 events accepted, 10 not (5 × 503, 2 redirected, 3 else). */
const run: SummaryData = {
  state: { testRunDurationMs: 12_000 },
  metrics: {
    events_failed: { type: "rate", contains: "default", values: { rate: 0.05, passes: 10, fails: 190 } },
    "events_rejected{status:503}": counter(5),
    "events_rejected{status:401}": counter(0),
    "redirects{endpoint:events}": counter(2),
    iterations: counter(230),
    "iterations{scenario:sustained}": counter(200),
    dropped_iterations: counter(4),
    "http_req_duration{endpoint:events}": trend({ max: 80, "p(95)": 31.5, avg: 12, med: 9, min: 1 }),
    "http_req_duration{endpoint:token}": trend({ avg: 5 }),
    token_requests: counter(9),
    "token_requests{reason:initial}": counter(5),
    "token_requests{reason:idle}": counter(3),
    "token_requests{reason:rejected}": counter(1),
    "token_requests{reason:idle,outcome:issued}": counter(3),
    "token_requests{reason:rejected,outcome:issued}": counter(1),
    "token_requests{outcome:failed}": counter(1),
    "token_expiries{kind:unexpected}": counter(1),
    "token_expiries{kind:outlived}": counter(2),
    "token_expiries{kind:idle}": counter(3),
    "token_expiries{kind:extended}": counter(4),
    "token_expiries{kind:survived}": counter(6),
  },
};

describe("reportFacts", () => {
  it("reads the run's counts from k6's summary, with rates over the seconds after the warm-up", () => {
    expect(reportFacts(run, 2)).toEqual({
      runSeconds: 12,
      warmUpSeconds: 2,
      loadSeconds: 10,
      eventsAccepted: 190,
      eventsRejected: 10,
      acceptedPerSecond: 19,
      errorRate: 0.05,
      rejectedByStatus: [
        ["503", 5],
        ["3xx", 2],
        ["other", 3],
      ],
      iterations: 200,
      droppedIterations: 4,
      eventLatency: [
        ["avg", 12],
        ["med", 9],
        ["p(95)", 31.5],
        ["max", 80],
      ],
      tokenRequests: 9,
      tokenRequestsByReason: [
        ["initial", 5],
        ["idle", 3],
        ["rejected", 1],
      ],
      tokenRefreshes: 4,
      tokenFailures: 1,
      tokenLatency: [["avg", 5]],
      unexpectedExpiries: 1,
      idleOutlived: 2,
      idleExpiries: 3,
      extendedTokens: 4,
      idleSurvivals: 6,
    });
  });

  it("counts every iteration when k6 kept no scenario's apart, and rates over the whole run without a warm-up", () => {
    const { "iterations{scenario:sustained}": _own, ...metrics } = run.metrics;
    const facts = reportFacts({ ...run, metrics });
    expect(facts.iterations).toBe(230);
    expect(facts.loadSeconds).toBe(12);
    expect(facts.acceptedPerSecond).toBeCloseTo(190 / 12, 10);
  });

  it("gives a run stopped in its warm-up no load seconds and no rate, never a negative one", () => {
    const facts = reportFacts({ ...run, state: { testRunDurationMs: 1500 } }, 2);
    expect(facts).toMatchObject({ runSeconds: 1.5, loadSeconds: 0, acceptedPerSecond: 0 });
  });

  it("reads an empty summary as nothing measured, with no status listed", () => {
    expect(reportFacts({ metrics: {} })).toMatchObject({
      runSeconds: 0,
      eventsAccepted: 0,
      eventsRejected: 0,
      acceptedPerSecond: 0,
      errorRate: 0,
      rejectedByStatus: [],
      iterations: 0,
      eventLatency: [],
      tokenRequestsByReason: [],
      tokenRefreshes: 0,
    });
  });
});

describe("instanceTotals", () => {
  it("gives one instance's own counts under its segment", () => {
    expect(instanceTotals("0:1/2", run)).toEqual({
      segment: "0:1/2",
      eventsAccepted: 190,
      eventsRejected: 10,
      iterations: 200,
      droppedIterations: 4,
      tokenRequests: 9,
    });
  });
});
