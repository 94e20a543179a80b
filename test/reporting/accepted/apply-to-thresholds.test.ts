import { describe, expect, it } from "vitest";
import type { Ledger, LedgerEntry } from "../../../reporting/accepted/index.ts";
import { applyToThresholds } from "../../../reporting/accepted/index.ts";
import type { ThresholdResult } from "../../../reporting/load/index.ts";
import { loadResult } from "../../../reporting/load/index.ts";

const threshold = (metric: string, ok: boolean): ThresholdResult => ({
  metric,
  expression: "count==0",
  ok,
  observed: ok ? "count=0" : "count=4",
});
const ledger = (...entries: LedgerEntry[]): Ledger => ({
  file: "accepted.json",
  entries,
  today: "2026-11-25",
});
const gate = (id: string, expires = "2027-01-31"): LedgerEntry => ({ id, reason: "fixed lifetime", expires });
const unexpected = threshold("token_expiries{kind:unexpected}", false);
const failed = threshold("events_failed", false);

describe("applyToThresholds", () => {
  it("waives a failed threshold named by its gate id, and fails the others", () => {
    const result = applyToThresholds([unexpected, failed], ledger(gate("load.events_failed")));
    expect(result.waived).toEqual([failed]);
    expect(result.failed).toEqual([unexpected]);
    expect(result.outcomes.map((o) => o.state)).toEqual(["waived"]);
  });

  it("waives every sliding-expiry threshold with load.sliding-expiry, and no other", () => {
    const extended = threshold("token_expiries{kind:extended}", false);
    const result = applyToThresholds([unexpected, extended, failed], ledger(gate("load.sliding-expiry")));
    expect(result.waived).toEqual([unexpected, extended]);
    expect(result.failed).toEqual([failed]);
  });

  it("fails an expired gate again, calls a passing one stale and a missing one unobserved", () => {
    const result = applyToThresholds(
      [unexpected, threshold("events_failed", true)],
      ledger(
        gate("load.sliding-expiry", "2026-11-24"),
        gate("load.events_failed"),
        gate("load.dropped_iterations"),
      ),
    );
    expect(result.failed).toEqual([unexpected]);
    expect(result.outcomes.map((o) => [o.entry.id, o.state])).toEqual([
      ["load.sliding-expiry", "expired"],
      ["load.events_failed", "stale"],
      ["load.dropped_iterations", "unobserved"],
    ]);
  });

  it("leaves contract entries to contract runs", () => {
    const result = applyToThresholds([unexpected], ledger({ ...gate("lifetime.sliding") }));
    expect(result).toEqual({ failed: [unexpected], waived: [], outcomes: [] });
  });
});

describe("loadResult with a ledger", () => {
  it("passes a finished run whose every failed threshold is waived, and says how many", () => {
    const result = loadResult(
      [unexpected, threshold("events_failed", true)],
      { kind: "finished" },
      ledger(gate("load.sliding-expiry")),
    );
    expect(result).toMatchObject({ outcome: "passed", failedThresholds: [], waivedThresholds: [unexpected] });
  });

  it("never waives its way out of an aborted run: its entries are unobserved", () => {
    const result = loadResult(
      [unexpected],
      { kind: "aborted", reason: "interrupted" },
      ledger(gate("load.sliding-expiry")),
    );
    expect(result.outcome).toBe("aborted");
    expect(result.accepted.map((o) => o.state)).toEqual(["unobserved"]);
  });
});
