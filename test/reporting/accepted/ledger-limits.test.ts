import { describe, expect, it } from "vitest";
import { EXPIRY, METRIC } from "../../../load/index.ts";
import type { Ledger } from "../../../reporting/accepted/index.ts";
import { parseLedger } from "../../../reporting/accepted/index.ts";
import type { SummaryData } from "../../../reporting/load/index.ts";
import { renderReports } from "../../../reporting/load/index.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

const TODAY = "2026-11-27";
const read = (...accepted: object[]) => parseLedger(JSON.stringify({ accepted }), "accepted.json", TODAY);
const entry = (id: string, expires = "2027-01-31") => ({ id, reason: "known", ticket: "API-1", expires });

describe("a ledger's limits", () => {
  it("refuses an expiry more than about a year ahead, so that a renewal is seen", () => {
    const far = read(entry("lifetime.sliding", "9999-12-31"));
    expect(far.ok).toBe(false);
    if (!far.ok) {
      expect(far.problem.message).toBe(
        "accepted.json: entry 1 (lifetime.sliding): expires 9999-12-31 is more than a year ahead (at most 2027-11-28): renew the entry when it is due",
      );
    }
    expect(read(entry("lifetime.sliding", "2027-11-28")).ok).toBe(true);
  });

  it.each([
    "load.redirects",
    "bearer.missing",
    "bearer.garbage",
    "bearer.tampered",
    "bearer.alg-none",
    "bearer.foreign-key",
    "token.wrong-secret-refused",
    "token.unknown-client-refused",
    "bearer.truncated",
    "bearer.other-scheme",
    "token.grant-type-enforced",
    "rotation.old-secret",
  ])("refuses to waive %s, naming it", (id) => {
    const reading = read(entry("lifetime.sliding"), entry(id));
    expect(reading.ok).toBe(false);
    if (!reading.ok)
      expect(reading.problem.message).toMatch(new RegExp(`entry 2 \\(${id}\\): no ledger may waive`));
  });

  it("takes the baseline figures as ids, with an expiry, and names an unknown one", () => {
    const ids = [
      "events.p50",
      "events.p95",
      "events.p99",
      "token.p50",
      "events.failure-rate",
      "events.accepted-rate",
    ];
    expect(read(...ids.map((id) => entry(`baseline.${id}`))).ok).toBe(true);
    const unknown = read(entry("baseline.events.p97"));
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.problem.unknownId).toBe("baseline.events.p97");
    const open = read({ id: "baseline.events.p95", reason: "known" });
    expect(open.ok).toBe(false);
    if (!open.ok) expect(open.problem.message).toContain("expires (YYYY-MM-DD) is required");
  });
});

type Metrics = SummaryData["metrics"];

/** A finished sustained run's summary: `accepted` events accepted, `failed` failed, and the expiry counters. */
function summary(accepted: number, failed: number, extended: number): SummaryData {
  const counter = (count: number, thresholds: Record<string, boolean> = {}): Metrics[string] => ({
    type: "counter",
    contains: "default",
    values: { count, rate: count / 10 },
    thresholds: Object.fromEntries(Object.entries(thresholds).map(([k, ok]) => [k, { ok }])),
  });
  return {
    state: { testRunDurationMs: 12_000 },
    metrics: {
      [METRIC.eventsFailed]: {
        type: "rate",
        contains: "default",
        values: { rate: failed / (accepted + failed), passes: failed, fails: accepted },
        thresholds: { "rate<0.01": { ok: failed / (accepted + failed) < 0.01 } },
      },
      iterations: counter(accepted + failed),
      [METRIC.tokenRequests]: counter(5),
      [EXPIRY.unexpected]: counter(0, { "count==0": true }),
      [EXPIRY.outlived]: counter(0, { "count==0": true }),
      [EXPIRY.extended]: counter(extended),
    },
  };
}

const ledger = (...ids: string[]): Ledger => ({
  file: "accepted.json",
  today: TODAY,
  entries: ids.map((id) => entry(id)),
});

describe("a load run judged with a ledger", () => {
  it("is never PASSED when no event was accepted, whatever the ledger waives", () => {
    const reports = renderReports(
      summary(0, 200, 3),
      sustainedReportContext,
      undefined,
      undefined,
      ledger("load.events_failed"),
    );
    expect(reports.result.outcome).toBe("failed");
    expect(reports.result.reason).toBe("no event was accepted");
    expect(reports.text).not.toContain("PASSED");
    // The same run with events accepted passes on its waiver.
    const some = renderReports(
      summary(150, 50, 3),
      sustainedReportContext,
      undefined,
      undefined,
      ledger("load.events_failed"),
    );
    expect(some.result.outcome).toBe("passed");
  });

  it("calls a sliding-expiry entry UNOBSERVED, not STALE, when the run did not exercise sliding expiry", () => {
    const short = renderReports(
      summary(200, 0, 0),
      sustainedReportContext,
      undefined,
      undefined,
      ledger("load.sliding-expiry"),
    );
    expect(short.input.verdict.level).toBe("not-exercised");
    expect(short.result.accepted.map((o) => [o.entry.id, o.state])).toEqual([
      ["load.sliding-expiry", "unobserved"],
    ]);
    expect(short.result.accepted[0]?.detail).toContain("sliding expiry was not exercised");
    expect(short.text).not.toContain("STALE");
    // Exercised and held: the entry is stale, and says so.
    const long = renderReports(
      summary(200, 0, 3),
      sustainedReportContext,
      undefined,
      undefined,
      ledger("load.sliding-expiry"),
    );
    expect(long.input.verdict.level).toBe("held");
    expect(long.result.accepted.map((o) => o.state)).toEqual(["stale"]);
  });
});
