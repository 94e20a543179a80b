import { describe, expect, it } from "vitest";
import { loadOptions, planScenario } from "../../../load/index.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

describe("loadOptions", () => {
  it("runs the scenario under its own name, after the token warm-up its plan asks for", () => {
    const sustained = runConfig("sustained");
    const plan = planScenario(sustained);
    const options = loadOptions(sustained, plan);
    expect(Object.keys(options.scenarios)).toEqual(["warm_up", "sustained"]);
    expect(options.scenarios.sustained).toBe(plan.executor);
    const storm = runConfig("token-storm");
    expect(Object.keys(loadOptions(storm, planScenario(storm)).scenarios)).toEqual(["token-storm"]);
    const capacity = runConfig("capacity");
    expect(Object.keys(loadOptions(capacity, planScenario(capacity)).scenarios)).toEqual([
      "capacity_warm_up",
      "capacity",
    ]);
  });

  it("follows no redirect, keeps no event body, and verifies TLS unless --insecure", () => {
    const config = runConfig("sustained");
    const options = loadOptions(config, planScenario(config));
    expect(options).toMatchObject({ maxRedirects: 0, discardResponseBodies: true, noCookiesReset: true });
    expect("insecureSkipTLSVerify" in options).toBe(false);
    const insecure = runConfig("sustained", { insecure: true });
    expect(loadOptions(insecure, planScenario(insecure)).insecureSkipTLSVerify).toBe(true);
    // No `url` tag: each distinct URL would be a time series of its own.
    expect(options.systemTags).not.toContain("url");
    expect(options.summaryTrendStats).toEqual(expect.arrayContaining(["p(95)", "p(99)", "count"]));
  });

  it("names the sub-metrics the reports read, with thresholds that always hold", () => {
    const config = runConfig("sustained");
    const { thresholds } = loadOptions(config, planScenario(config));
    expect(thresholds["events_rejected{status:401}"]).toEqual(["count>=0"]);
    expect(thresholds["events_rejected{status:no-token}"]).toEqual(["count>=0"]);
    expect(thresholds["token_requests{reason:initial}"]).toEqual(["count>=0"]);
    expect(thresholds["iterations{scenario:sustained}"]).toEqual(["count>=0"]);
    expect(thresholds["http_req_duration{endpoint:token}"]).toEqual(["min>=0"]);
  });

  it("puts the user's objective in place of the default for that metric only", () => {
    const config = runConfig("sustained", { thresholdOverrides: { events_failed: ["rate<0.05"] } });
    const { thresholds } = loadOptions(config, planScenario(config));
    expect(thresholds.events_failed).toEqual(["rate<0.05"]);
    const plain = runConfig("sustained");
    expect(loadOptions(plain, planScenario(plain)).thresholds.events_failed).toEqual(["rate<0.01"]);
  });

  it("judges a capacity step on its judged stretch: every objective reads that part's sub-metric", () => {
    const config = runConfig("capacity");
    const { thresholds } = loadOptions(config, planScenario(config));
    expect(thresholds.events_failed).toBeUndefined();
    // The default objective on failures, moved to the judged stretch.
    expect(thresholds["events_failed{scenario:capacity}"]).toEqual(["rate<0.01"]);
    expect(thresholds["dropped_iterations{scenario:capacity}"]).toBeDefined();
    // The latency objective too, the same one a sustained run holds the whole run to.
    const sustained = runConfig("sustained");
    const whole = loadOptions(sustained, planScenario(sustained)).thresholds[
      "http_req_duration{endpoint:events}"
    ];
    expect(whole).toEqual(["p(95)<500"]);
    expect(thresholds["http_req_duration{endpoint:events,scenario:capacity}"]).toEqual(whole);
  });

  it("is plain data k6 reads from a --config file", () => {
    const config = runConfig("idle-gap");
    const options = loadOptions(config, planScenario(config));
    expect(JSON.parse(JSON.stringify(options))).toEqual(options);
  });
});
