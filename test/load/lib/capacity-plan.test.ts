import { describe, expect, it } from "vitest";
import { EVENT_DURATION, EXPIRY, loadOptions, METRIC, planScenario } from "../../../load/index.ts";
import {
  eventsToJudge,
  judgedMetric,
  judgedSecondsFor,
  judgedThresholds,
  latencyLimitMs,
  objectiveName,
  stepVus,
} from "../../../load/lib/capacity-plan.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

describe("a capacity step's events", () => {
  it("holds 20 events beyond the highest latency percentile its objectives name", () => {
    expect(eventsToJudge({ [EVENT_DURATION]: ["p(95)<500"] })).toBe(400);
    expect(eventsToJudge({ [EVENT_DURATION]: ["p(95)<500", "p(99)<900"] })).toBe(2000);
    expect(eventsToJudge({ [EVENT_DURATION]: ["p(99.9)<2000"] })).toBe(20_000);
  });

  it("holds 10 failures at the failure-rate objective's limit, and 100 events however loose the objectives", () => {
    expect(eventsToJudge({ [METRIC.eventsFailed]: ["rate<0.01"] })).toBe(1000);
    expect(eventsToJudge({ [METRIC.eventsFailed]: ["rate<0.05"], [EVENT_DURATION]: ["p(95)<500"] })).toBe(
      400,
    );
    expect(eventsToJudge({ [EVENT_DURATION]: ["avg<100"], [EXPIRY.unexpected]: ["count==0"] })).toBe(100);
    expect(eventsToJudge({})).toBe(100);
  });

  it("is judged long enough for its events, and never shorter than the minimum", () => {
    expect(judgedSecondsFor(20, 1000, 10)).toBe(50);
    expect(judgedSecondsFor(1000, 1000, 10)).toBe(10);
    expect(judgedSecondsFor(300, 1000, 2)).toBe(4);
  });
});

describe("a capacity step's VUs", () => {
  it("pre-allocates every answer in flight at the latency limit, and allows twice that", () => {
    expect(stepVus(1000, 5, 1, 500)).toEqual({ preAllocated: 500, max: 1000 });
    expect(stepVus(20, 5, 1, 500)).toEqual({ preAllocated: 10, max: 20 });
    expect(stepVus(4, 5, 1, 500)).toEqual({ preAllocated: 5, max: 10 });
    // No latency objective: sized for answers of a second.
    expect(stepVus(100, 5, 1, undefined)).toEqual({ preAllocated: 100, max: 200 });
    // Capped per k6 process: a rate that needs more is beyond one process.
    expect(stepVus(1_000_000, 5, 1, 500)).toEqual({ preAllocated: 1000, max: 2000 });
    expect(stepVus(30_000, 5, 1, 50)).toEqual({ preAllocated: 1000, max: 2000 });
    expect(stepVus(1_000_000, 5, 2, 500)).toEqual({ preAllocated: 2000, max: 4000 });
    // Split over 3 instances, maxVUs is a multiple of 3 so each gets an equal share of the rate.
    expect(stepVus(1000, 5, 3, 500).max % 3).toBe(0);
  });

  it("reads the latency limit from the objectives on event latency", () => {
    expect(latencyLimitMs({ [EVENT_DURATION]: ["p(95)<500", "p(99)<=1500"] })).toBe(1500);
    expect(latencyLimitMs({ [METRIC.eventsFailed]: ["rate<0.01"] })).toBeUndefined();
  });
});

describe("a capacity step's objectives", () => {
  it("are named as the user gave them, the judged stretch's tag left out", () => {
    expect(objectiveName("http_req_duration{endpoint:events,scenario:capacity}")).toBe(
      "http_req_duration{endpoint:events}",
    );
    expect(objectiveName("events_failed{scenario:capacity}")).toBe("events_failed");
    expect(objectiveName("token_expiries{kind:unexpected}")).toBe("token_expiries{kind:unexpected}");
    for (const metric of ["events_failed", EVENT_DURATION, "dropped_iterations", EXPIRY.unexpected]) {
      expect(objectiveName(judgedMetric(metric))).toBe(metric);
    }
  });

  it("read the judged stretch, except the ones that prove a contract violation, which read the whole step", () => {
    expect(judgedMetric("events_failed")).toBe("events_failed{scenario:capacity}");
    expect(judgedMetric(EVENT_DURATION)).toBe("http_req_duration{endpoint:events,scenario:capacity}");
    expect(judgedMetric("dropped_iterations")).toBe("dropped_iterations{scenario:capacity}");
    expect(judgedMetric(EXPIRY.unexpected)).toBe(EXPIRY.unexpected);
    expect(judgedMetric(METRIC.redirects)).toBe(METRIC.redirects);
    expect(judgedMetric("http_req_duration{scenario:other}")).toBe("http_req_duration{scenario:other}");
    expect(
      judgedThresholds({ [EVENT_DURATION]: ["p(95)<300"], [METRIC.eventsFailed]: ["rate<0.05"] }),
    ).toEqual({
      "http_req_duration{endpoint:events,scenario:capacity}": ["p(95)<300"],
      "events_failed{scenario:capacity}": ["rate<0.05"],
    });
  });

  it("make k6 run the step's warm-up, unjudged, then its judged stretch with the objectives on it", () => {
    const config = runConfig("capacity", {
      rate: 400,
      capacityStep: { rate: 400, warmUpSeconds: 5, judgedSeconds: 12 },
      thresholdOverrides: { [EVENT_DURATION]: ["p(95)<300"] },
    });
    const plan = planScenario(config);
    const options = loadOptions(config, plan);
    expect(Object.keys(options.scenarios)).toEqual(["capacity_warm_up", "capacity"]);
    expect(options.scenarios.capacity_warm_up).toMatchObject({
      executor: "constant-arrival-rate",
      rate: 400,
      duration: "5000ms",
      gracefulStop: "0s",
    });
    expect(options.scenarios.capacity).toMatchObject({
      rate: 400,
      duration: "12000ms",
      startTime: "5000ms",
      preAllocatedVUs: 120,
      maxVUs: 240,
    });
    expect(plan.plannedIterations).toBe(4800);
    expect(plan.judgedFromSeconds).toBe(5);
    expect(options.thresholds).toMatchObject({
      "http_req_duration{endpoint:events,scenario:capacity}": ["p(95)<300"],
      "events_failed{scenario:capacity}": ["rate<0.01"],
      // 1 % of the judged stretch's 4,800 planned iterations.
      "dropped_iterations{scenario:capacity}": ["count<=48"],
      [EXPIRY.unexpected]: ["count==0"],
      [METRIC.redirects]: ["count==0"],
    });
    expect(options.thresholds[EVENT_DURATION]).toEqual(["min>=0"]);
    expect(options.thresholds.events_failed).toBeUndefined();
  });
});
