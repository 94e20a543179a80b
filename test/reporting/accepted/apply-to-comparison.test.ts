import { describe, expect, it } from "vitest";
import type { Ledger, LedgerEntry } from "../../../reporting/accepted/index.ts";
import { applyToComparison } from "../../../reporting/accepted/index.ts";
import type { FigureComparison, LoadComparison } from "../../../reporting/compare/compare-load.ts";

const TODAY = "2026-11-25";

function figure(
  id: FigureComparison["id"],
  status: FigureComparison["status"],
  window?: FigureComparison["window"],
): FigureComparison {
  return {
    id,
    label: id,
    short: id,
    window,
    baseline: 10,
    candidate: 12,
    shift: undefined,
    status,
    margin: 1,
    reason: `${id} ${status}`,
    samples: { baseline: 60, candidate: 60, of: "units of 1 s" },
    format: (value) => `${value} ms`,
  };
}

function comparison(figures: FigureComparison[], windows: FigureComparison[] = []): LoadComparison {
  return { figures, windows, windowsJudged: windows.length, windowSeconds: 60, notes: [] };
}

const ledgerOf = (...entries: LedgerEntry[]): Ledger => ({ file: "accepted.json", entries, today: TODAY });
const p95: LedgerEntry = {
  id: "baseline.events.p95",
  reason: "new cache",
  ticket: "OPS-1",
  expires: "2027-01-31",
};

describe("applyToComparison", () => {
  it("leaves the comparison as it is without a ledger or without a baseline entry in it", () => {
    const regressed = comparison([figure("events.p95", "REGRESSED")]);
    expect(applyToComparison(regressed, undefined)).toEqual({ comparison: regressed, outcomes: [] });
    const loadOnly = ledgerOf({ id: "load.events_failed", reason: "x", expires: "2027-01-31" });
    expect(applyToComparison(regressed, loadOnly)).toEqual({ comparison: regressed, outcomes: [] });
  });

  it("marks a REGRESSED figure an entry in force accepts WAIVED, with the entry's words", () => {
    const { comparison: applied, outcomes } = applyToComparison(
      comparison([figure("events.p95", "REGRESSED"), figure("events.p50", "REGRESSED")]),
      ledgerOf(p95),
    );
    expect(applied.figures.map((f) => [f.id, f.status, f.reason])).toEqual([
      ["events.p95", "WAIVED", "events.p95 REGRESSED [WAIVED: accepted until 2027-01-31 (OPS-1): new cache]"],
      ["events.p50", "REGRESSED", "events.p50 REGRESSED"],
    ]);
    expect(outcomes).toEqual([
      { entry: p95, state: "waived", detail: "fails, waived: new cache", level: "MUST" },
    ]);
  });

  it("keeps a figure REGRESSED once its entry expired, and says until when it was accepted", () => {
    const old = { ...p95, expires: "2026-11-24" };
    const { comparison: applied, outcomes } = applyToComparison(
      comparison([figure("events.p95", "REGRESSED")]),
      ledgerOf(old),
    );
    expect(applied.figures[0]).toMatchObject({
      status: "REGRESSED",
      reason: "events.p95 REGRESSED [accepted until 2026-11-24, expired]",
    });
    expect(outcomes[0]).toMatchObject({
      state: "expired",
      detail: "accepted until 2026-11-24, expired: it fails again",
    });
    const lastDay = applyToComparison(
      comparison([figure("events.p95", "REGRESSED")]),
      ledgerOf({ ...p95, expires: TODAY }),
    );
    expect(lastDay.comparison.figures[0]?.status).toBe("WAIVED");
  });

  it("waives a window that regressed where the whole run did not", () => {
    const window = figure("events.p95", "REGRESSED", { fromSeconds: 240, toSeconds: 300 });
    const { comparison: applied, outcomes } = applyToComparison(
      comparison([figure("events.p95", "UNCHANGED")], [window]),
      ledgerOf(p95),
    );
    expect(applied.figures[0]?.status).toBe("UNCHANGED");
    expect(applied.windows[0]?.status).toBe("WAIVED");
    expect(outcomes[0]?.state).toBe("waived");
  });

  it("calls an entry stale when its figure was judged and held, unobserved when it was not decided", () => {
    const entries = [
      p95,
      { id: "baseline.token.p50", reason: "a" },
      { id: "baseline.events.failure-rate", reason: "b" },
    ];
    const { outcomes } = applyToComparison(
      comparison([
        figure("events.p95", "UNCHANGED"),
        figure("token.p50", "INCONCLUSIVE"),
        figure("events.failure-rate", "NOT JUDGED"),
      ]),
      ledgerOf(...entries),
    );
    expect(outcomes.map((o) => [o.entry.id, o.state, o.detail])).toEqual([
      ["baseline.events.p95", "stale", "passes now: remove the entry"],
      ["baseline.token.p50", "unobserved", "not observed: it was inconclusive"],
      ["baseline.events.failure-rate", "unobserved", "not observed: it was not judged"],
    ]);
  });

  it("does not apply an entry bound elsewhere, keeping its figure REGRESSED, and lists outcomes in ledger order", () => {
    const bound: LedgerEntry = { ...p95, environment: "prod" };
    const capacity: LedgerEntry = { id: "baseline.capacity", reason: "smaller nodes", expires: "2027-01-31" };
    const ledger: Ledger = {
      ...ledgerOf(bound, capacity),
      scope: { environment: "staging", target: "embedded" },
    };
    const { comparison: applied, outcomes } = applyToComparison(
      comparison([figure("events.p95", "REGRESSED"), figure("capacity", "REGRESSED")]),
      ledger,
    );
    expect(applied.figures.map((f) => f.status)).toEqual(["REGRESSED", "WAIVED"]);
    expect(outcomes.map((o) => [o.entry.id, o.state])).toEqual([
      ["baseline.events.p95", "not-applied"],
      ["baseline.capacity", "waived"],
    ]);
    expect(outcomes[0]?.detail).toBe("bound to environment 'prod', and this run's is 'staging'");
  });
});
