import { describe, expect, it } from "vitest";
import { gateMatches, isContractId, isExpiryMetric } from "../../../reporting/accepted/gate-ids.ts";
import {
  BASELINE_GATE_IDS,
  isBaselineGateId,
  isLoadGateId,
  loadGateId,
  NEVER_WAIVED,
  SLIDING_EXPIRY_GATE,
} from "../../../reporting/accepted/index.ts";

describe("gate ids", () => {
  it("name a load gate load. + its metric, and a baseline figure baseline. + the figure", () => {
    expect(loadGateId("http_req_duration{endpoint:events}")).toBe("load.http_req_duration{endpoint:events}");
    expect(BASELINE_GATE_IDS).toContain("baseline.events.p95");
    expect(BASELINE_GATE_IDS).toContain("baseline.capacity");
    expect(BASELINE_GATE_IDS.every((id) => id.startsWith("baseline."))).toBe(true);
  });

  it("tell load gates, baseline figures and contract checks apart", () => {
    expect([isLoadGateId("load.events_failed"), isBaselineGateId("load.events_failed")]).toEqual([
      true,
      false,
    ]);
    expect([isLoadGateId("baseline.capacity"), isBaselineGateId("baseline.capacity")]).toEqual([false, true]);
    expect(isContractId("lifetime.sliding")).toBe(true);
    expect(isContractId("load.redirects")).toBe(false);
    expect(isContractId("baseline.events.p50")).toBe(false);
    // A check whose id merely contains the word is still a check.
    expect(isContractId("token.load.x")).toBe(true);
  });

  it("never let a ledger waive the redirect gate or an authentication refusal", () => {
    expect(NEVER_WAIVED).toContain("load.redirects");
    expect(NEVER_WAIVED).toContain("bearer.alg-none");
    expect(NEVER_WAIVED).toContain("rotation.old-secret");
    expect(NEVER_WAIVED).not.toContain(SLIDING_EXPIRY_GATE);
  });
});

describe("gateMatches", () => {
  it("matches a threshold's own gate, and every expiry threshold to the sliding-expiry gate", () => {
    expect(gateMatches("load.events_failed", "events_failed")).toBe(true);
    expect(gateMatches("load.events_failed", "events_failed{status:503}")).toBe(false);
    expect(gateMatches("load.token_expiries{kind:unexpected}", "token_expiries{kind:unexpected}")).toBe(true);
    expect(gateMatches(SLIDING_EXPIRY_GATE, "token_expiries{kind:unexpected}")).toBe(true);
    expect(gateMatches(SLIDING_EXPIRY_GATE, "token_expiries")).toBe(true);
    expect(gateMatches(SLIDING_EXPIRY_GATE, "events_failed")).toBe(false);
    expect(gateMatches("events_failed", "events_failed")).toBe(false);
  });
});

describe("isExpiryMetric", () => {
  it("is the token_expiries metric and its sub-metrics only", () => {
    expect(isExpiryMetric("token_expiries")).toBe(true);
    expect(isExpiryMetric("token_expiries{kind:outlived}")).toBe(true);
    expect(isExpiryMetric("token_expiries_total")).toBe(false);
    expect(isExpiryMetric("token_requests{kind:x}")).toBe(false);
  });
});
