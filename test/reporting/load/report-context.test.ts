import { describe, expect, it } from "vitest";
import type { ScenarioPlan } from "../../../load/index.ts";
import { reportContext } from "../../../reporting/load/index.ts";
import { idleGapPlan as gaps } from "../../support/idle-gap-plan.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

/** A constant-rate plan written out as k6 reads it: 30/s over 20 VUs at most, after a 2 s warm-up. */
const constantRate: ScenarioPlan = {
  executor: {
    executor: "constant-arrival-rate",
    rate: 30,
    timeUnit: "1s",
    duration: "10s",
    preAllocatedVUs: 5,
    maxVUs: 20,
  } as ScenarioPlan["executor"],
  warmUp: undefined,
  warmUpSeconds: 2,
  plannedIterations: 300,
  idleGap: undefined,
  expectedSeconds: 12,
  maxSeconds: 60,
};
const closed: ScenarioPlan = {
  executor: {
    executor: "per-vu-iterations",
    vus: 2,
    iterations: 20,
    maxDuration: "1m",
  } as ScenarioPlan["executor"],
  warmUp: undefined,
  warmUpSeconds: 0,
  plannedIterations: undefined,
  idleGap: gaps,
  expectedSeconds: 30,
  maxSeconds: 90,
};

describe("reportContext", () => {
  it("takes the run's settings and plan, with the arrival ceiling of an open scenario", () => {
    const config = runConfig("sustained", { rate: 30, durationSeconds: 10, vus: 5, runId: "run-7" });
    expect(reportContext(config, constantRate, ["TLS was not verified"], ["--token-param audience"])).toEqual(
      {
        scenario: "sustained",
        runId: "run-7",
        targetLabel: "http://127.0.0.1:1/api",
        clientModel: "sliding",
        rate: 30,
        durationSeconds: 10,
        vus: 5,
        expiresInSeconds: 300,
        marginSeconds: 30,
        plannedIterations: 300,
        warmUpSeconds: 2,
        idleGap: undefined,
        arrivals: { peakRate: 30, maxVus: 20 },
        warnings: ["TLS was not verified"],
        overrides: ["--token-param audience"],
      },
    );
  });

  it("leaves out a rate the scenario does not use, the arrivals of a closed model, and empty overrides", () => {
    const context = reportContext(runConfig("idle-gap", { rate: 99 }), closed);
    expect(context.rate).toBeUndefined();
    expect(context.idleGap).toBe(gaps);
    expect(context.warnings).toEqual([]);
    expect("arrivals" in context).toBe(false);
    expect("overrides" in context).toBe(false);
  });

  it("holds no credential of the run", () => {
    const config = runConfig("sustained", {
      credentials: [{ clientId: "client", clientSecret: "s3cret-value" }],
    });
    expect(JSON.stringify(reportContext(config, constantRate))).not.toContain("s3cret-value");
  });
});
