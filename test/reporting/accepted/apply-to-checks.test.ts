import { describe, expect, it } from "vitest";
import type { CheckResult, CheckStatus } from "../../../contracts/index.ts";
import type { Ledger, LedgerEntry } from "../../../reporting/accepted/index.ts";
import { applyToChecks } from "../../../reporting/accepted/index.ts";

const check = (id: string, status: CheckStatus): CheckResult => ({
  id,
  title: id,
  area: "lifetime",
  level: "MUST",
  rule: "Authentication rule 6",
  status,
  message: `${id} said so`,
  durationMs: 1,
  evidence: [],
});
const ledger = (...entries: LedgerEntry[]): Ledger => ({
  file: "accepted.json",
  entries,
  today: "2026-11-25",
});
const sliding: LedgerEntry = {
  id: "lifetime.sliding",
  reason: "fixed lifetime",
  ticket: "API-1",
  expires: "2027-01-31",
};

describe("applyToChecks", () => {
  it("waives a failing accepted check while its entry is in force, through its last day", () => {
    for (const expires of ["2027-01-31", "2026-11-25"]) {
      const { checks, outcomes } = applyToChecks(
        [check("lifetime.sliding", "FAIL")],
        ledger({ ...sliding, expires }),
      );
      expect(checks[0]).toMatchObject({
        status: "WAIVED",
        acceptance: { state: "waived", reason: "fixed lifetime", ticket: "API-1", expires },
      });
      expect(checks[0]?.message).toBe(
        `lifetime.sliding said so [WAIVED: accepted until ${expires} (API-1): fixed lifetime]`,
      );
      expect(outcomes.map((o) => o.state)).toEqual(["waived"]);
    }
  });

  it("waives a warning too: it is never shown as a pass", () => {
    const { checks } = applyToChecks(
      [check("token.no-store", "WARN")],
      ledger({ id: "token.no-store", reason: "proxy" }),
    );
    expect(checks[0]?.status).toBe("WAIVED");
  });

  it("fails again the day after the entry's last day, saying so", () => {
    const { checks, outcomes } = applyToChecks(
      [check("lifetime.sliding", "FAIL")],
      ledger({ ...sliding, expires: "2026-11-24" }),
    );
    expect(checks[0]).toMatchObject({ status: "FAIL", acceptance: { state: "expired" } });
    expect(checks[0]?.message).toContain("[accepted until 2026-11-24, expired]");
    expect(outcomes[0]).toMatchObject({
      state: "expired",
      detail: "accepted until 2026-11-24, expired: it fails again",
    });
  });

  it("calls an entry whose check passes stale, and leaves the pass alone", () => {
    const { checks, outcomes } = applyToChecks([check("lifetime.sliding", "PASS")], ledger(sliding));
    expect(checks[0]).toMatchObject({
      status: "PASS",
      message: "lifetime.sliding said so",
      acceptance: { state: "stale" },
    });
    expect(outcomes[0]).toMatchObject({ state: "stale", detail: "passes now: remove the entry" });
  });

  it("reports entries of checks that did not run, were skipped or undecided as unobserved, never as fixed", () => {
    const entries = ["lifetime.sliding", "lifetime.renewal", "token.issued"].map((id) => ({
      ...sliding,
      id,
    }));
    const { checks, outcomes } = applyToChecks(
      [check("lifetime.renewal", "ERROR"), check("token.issued", "SKIP")],
      ledger(...entries),
    );
    expect(checks.map((c) => c.status)).toEqual(["ERROR", "SKIP"]);
    expect(outcomes.map((o) => [o.entry.id, o.state, o.detail])).toEqual([
      ["lifetime.sliding", "unobserved", "not observed: the check did not run"],
      ["lifetime.renewal", "unobserved", "not observed: lifetime.renewal was undecided"],
      ["token.issued", "unobserved", "not observed: token.issued was skipped"],
    ]);
  });

  it("leaves load gate entries to load runs and unnamed checks as they are", () => {
    const { checks, outcomes } = applyToChecks(
      [check("bearer.missing", "FAIL")],
      ledger({ id: "load.sliding-expiry", reason: "r", expires: "2027-01-01" }),
    );
    expect(checks[0]?.status).toBe("FAIL");
    expect(outcomes).toEqual([]);
  });
});
