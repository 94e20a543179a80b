import { describe, expect, it } from "vitest";
import type { RunConfig } from "../../../load/index.ts";
import {
  defaultThresholds,
  EVENT_DURATION,
  EXPIRY,
  groupThresholds,
  loadOptions,
  METRIC,
  mergeThresholds,
  parseThresholdArgument,
  planScenario,
  REFRESH_REASONS,
  TOKEN_DURATION,
  TOKEN_FAILURES,
  TOKEN_OUTCOME,
  TOKEN_OUTCOME_TAG,
  tokenRefreshes,
  WARM_UP_SCENARIO,
} from "../../../load/index.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

describe("parseThresholdArgument", () => {
  it("splits at the first = outside a tag selector", () => {
    expect(parseThresholdArgument("http_req_duration{endpoint:events}=p(95)<300")).toEqual({
      metric: "http_req_duration{endpoint:events}",
      expression: "p(95)<300",
    });
    expect(parseThresholdArgument("token_unexpected_expiries=count==0")).toEqual({
      metric: "token_unexpected_expiries",
      expression: "count==0",
    });
    expect(parseThresholdArgument(" events_failed = rate<0.05 ")).toEqual({
      metric: "events_failed",
      expression: "rate<0.05",
    });
  });

  it.each([
    ["no expression", "events_failed"],
    ["no metric", "=rate<0.1"],
    ["unknown aggregation", "events_failed=mean<3"],
    ["no number", "events_failed=rate<"],
    ["script injection", "events_failed=rate<1; rm -rf"],
    ["bad metric name", "events failed=rate<1"],
  ])("rejects %s", (_label, raw) => {
    expect(() => parseThresholdArgument(raw)).toThrow();
  });

  it("groups several expressions per metric in order", () => {
    const args = ["a=p(95)<1", "b=rate<1", "a=p(99)<2"].map(parseThresholdArgument);
    expect(groupThresholds(args)).toEqual({ a: ["p(95)<1", "p(99)<2"], b: ["rate<1"] });
  });

  it("puts a metric of an earlier release under its new name", () => {
    const args = ["token_request_duration=p(95)<800", `${TOKEN_DURATION}=p(99)<900`].map(
      parseThresholdArgument,
    );
    expect(groupThresholds(args)).toEqual({
      "http_req_duration{endpoint:token}": ["p(95)<800", "p(99)<900"],
    });
  });

  it("puts token_request_failures, and its sub-metrics, under failed token requests", () => {
    const args = ["token_request_failures=count==0", "token_request_failures{status:503}=count<3"].map(
      parseThresholdArgument,
    );
    expect(groupThresholds(args)).toEqual({
      "token_requests{outcome:failed}": ["count==0"],
      "token_requests{outcome:failed,status:503}": ["count<3"],
    });
  });

  it.each(["token_refreshes", "token_refreshes{reason:idle}"])(
    "refuses %s, a metric no more, naming what to use instead",
    (metric) => {
      expect(() => parseThresholdArgument(`${metric}=count>=0`)).toThrow(
        `'${metric}' is no longer a metric: refreshes are`,
      );
      let message = "";
      try {
        parseThresholdArgument(`${metric}=count>=0`);
      } catch (error) {
        message = (error as Error).message;
      }
      for (const reason of REFRESH_REASONS) expect(message).toContain(tokenRefreshes(reason));
    },
  );
});

describe("defaultThresholds", () => {
  it("fails every scenario on any sliding-expiry violation, error rate and event latency", () => {
    for (const scenario of ["sustained", "ramp", "spike", "soak", "idle-gap", "token-storm"] as const) {
      const config = runConfig(scenario);
      const thresholds = defaultThresholds(config, planScenario(config));
      expect(thresholds[EXPIRY.unexpected]).toEqual(["count==0"]);
      expect(thresholds[EXPIRY.outlived]).toEqual(["count==0"]);
      expect(thresholds[METRIC.eventsFailed]).toEqual(["rate<0.01"]);
      expect(thresholds[EVENT_DURATION]).toEqual(["p(95)<500"]);
      // A redirect is never followed: a single one fails the run.
      expect(thresholds[METRIC.redirects]).toEqual(["count==0"]);
      expect(loadOptions(config, planScenario(config)).maxRedirects).toBe(0);
    }
  });

  it("guards dropped iterations in open models at 1% of the planned iterations", () => {
    const config = runConfig("sustained", { rate: 50, durationSeconds: 60 });
    expect(defaultThresholds(config, planScenario(config)).dropped_iterations).toEqual(["count<=30"]);
    const closed = runConfig("token-storm");
    expect(defaultThresholds(closed, planScenario(closed)).dropped_iterations).toBeUndefined();
  });

  it("makes idle-gap expect of every VU's cycle an idle expiry, a token used past expires_in and one surviving a gap over half of it", () => {
    const config = runConfig("idle-gap", { vus: 3, expiresInSeconds: 2, marginSeconds: 0.2 });
    const plan = planScenario(config);
    const thresholds = defaultThresholds(config, plan);
    expect(thresholds[EXPIRY.idle]).toEqual([`count>=${3 * 2}`]);
    expect(thresholds[EXPIRY.extended]).toEqual([`count>=${3 * 2}`]);
    expect(thresholds[EXPIRY.survived]).toEqual([`count>=${3 * 2}`]);
    const open = runConfig("sustained");
    expect(defaultThresholds(open, planScenario(open))[EXPIRY.extended]).toBeUndefined();
  });

  it("watches the token endpoint in token-storm", () => {
    const config = runConfig("token-storm");
    const thresholds = defaultThresholds(config, planScenario(config));
    expect(thresholds[TOKEN_DURATION]).toEqual(["p(95)<1000"]);
    expect(thresholds[TOKEN_FAILURES]).toEqual(["count==0"]);
    expect(TOKEN_FAILURES).toBe(`${METRIC.tokenRequests}{${TOKEN_OUTCOME_TAG}:${TOKEN_OUTCOME.failed}}`);
    expect(loadOptions(config, planScenario(config)).thresholds[TOKEN_FAILURES]).toEqual(["count==0"]);
  });
});

describe("thresholds in the k6 options", () => {
  it("lets --threshold replace a metric's list and keeps the other defaults", () => {
    const merged = mergeThresholds(
      { a: ["count==0"], b: ["rate<0.01"] },
      { b: ["rate<0.05"], c: ["p(95)<1"] },
    );
    expect(merged).toEqual({ a: ["count==0"], b: ["rate<0.05"], c: ["p(95)<1"] });
  });

  it("adds observation-only sub-metrics without overriding a real threshold", () => {
    const config: RunConfig = {
      ...runConfig("sustained"),
      thresholdOverrides: { [EVENT_DURATION]: ["p(99)<100"] },
    };
    const options = loadOptions(config, planScenario(config));
    expect(options.thresholds[EVENT_DURATION]).toEqual(["p(99)<100"]);
    expect(options.thresholds[`${METRIC.eventsRejected}{status:503}`]).toEqual(["count>=0"]);
    expect(options.thresholds[`${METRIC.tokenRequests}{reason:idle}`]).toEqual(["count>=0"]);
    // The reports' refreshes and failed token requests are sub-metrics of token_requests.
    for (const reason of REFRESH_REASONS)
      expect(options.thresholds[tokenRefreshes(reason)]).toEqual(["count>=0"]);
    expect(tokenRefreshes("idle")).toBe("token_requests{reason:idle,outcome:issued}");
    expect(options.thresholds[TOKEN_FAILURES]).toEqual(["count>=0"]);
    expect(options.discardResponseBodies).toBe(true);
    expect(Object.keys(options.scenarios)).toEqual([WARM_UP_SCENARIO, "sustained"]);
  });
});
