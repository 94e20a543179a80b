import { describe, expect, it } from "vitest";
import { needsAttention } from "../../../reporting/accepted/describe-outcomes.ts";
import type { EntryOutcome, LedgerEntry } from "../../../reporting/accepted/index.ts";
import {
  describeOutcomes,
  ledgerNote,
  staleWaiverClause,
  staleWaivers,
  staleWaiverWarning,
} from "../../../reporting/accepted/index.ts";

const sliding: LedgerEntry = {
  id: "lifetime.sliding",
  reason: "fixed lifetime",
  ticket: "API-1",
  expires: "2027-01-31",
};
const errors: LedgerEntry = { id: "load.events_failed", reason: "known 503s", expires: "2026-12-01" };
const latency: LedgerEntry = { id: "baseline.events.p95", reason: "new cache" };

const waived: EntryOutcome = {
  entry: sliding,
  state: "waived",
  detail: "fails, waived: fixed lifetime",
  level: "MUST",
};
const expired: EntryOutcome = {
  entry: errors,
  state: "expired",
  detail: "accepted until 2026-12-01, expired: it fails again",
};
const staleMust: EntryOutcome = {
  entry: errors,
  state: "stale",
  detail: "passes now: remove the entry",
  level: "MUST",
};
const staleShould: EntryOutcome = {
  entry: latency,
  state: "stale",
  detail: "passes now: remove the entry",
  level: "SHOULD",
};
const unobserved: EntryOutcome = {
  entry: latency,
  state: "unobserved",
  detail: "not observed: no baseline was compared",
};
const notApplied: EntryOutcome = {
  entry: sliding,
  state: "not-applied",
  detail: "bound to environment 'prod'",
};

describe("describeOutcomes", () => {
  it("writes one line per entry: its state in a column, its id, and the acceptance or what became of it", () => {
    expect(describeOutcomes([waived, expired, staleShould, unobserved, notApplied])).toEqual([
      "WAIVED     lifetime.sliding: accepted until 2027-01-31 (API-1): fixed lifetime",
      "EXPIRED    load.events_failed: accepted until 2026-12-01, expired: it fails again",
      "STALE      baseline.events.p95: passes now: remove the entry",
      "UNOBSERVED baseline.events.p95: not observed: no baseline was compared",
      "NOT APPLIED lifetime.sliding: bound to environment 'prod'",
    ]);
    expect(describeOutcomes([])).toEqual([]);
  });
});

describe("needsAttention", () => {
  it("asks for a look at an expired or stale entry only", () => {
    expect(needsAttention([expired])).toBe(true);
    expect(needsAttention([staleShould])).toBe(true);
    expect(needsAttention([waived, unobserved, notApplied])).toBe(false);
  });
});

describe("ledgerNote", () => {
  it("counts the expired, stale and unobserved entries, leaving a stale MUST waiver to its louder clause", () => {
    expect(ledgerNote([expired, staleShould, staleMust, unobserved, unobserved, waived])).toBe(
      "ledger: 1 EXPIRED, 1 STALE, 2 UNOBSERVED",
    );
    expect(ledgerNote([staleMust, waived, notApplied])).toBeUndefined();
  });
});

describe("stale waivers", () => {
  it("are the stale entries at MUST, each named once in the verdict line's clause", () => {
    const again = { ...staleMust, entry: { ...errors } };
    expect(staleWaivers([staleMust, staleShould, waived])).toEqual([staleMust]);
    expect(staleWaiverClause([staleMust, again])).toBe("STALE WAIVER: load.events_failed");
    const contract = { ...staleMust, entry: sliding };
    expect(staleWaiverClause([staleMust, contract])).toBe(
      "STALE WAIVERS: load.events_failed, lifetime.sliding",
    );
    expect(staleWaiverClause([staleShould])).toBeUndefined();
  });

  it("are warned of with the file that still waives them, until when, and what to do", () => {
    expect(staleWaiverWarning([staleMust, staleMust], "ops/accepted.json")).toBe(
      "STALE WAIVER: load.events_failed passes, and ops/accepted.json still waives it until 2026-12-01: remove the entry, or its next failure reads WAIVED and passes",
    );
    const contract = { ...staleMust, entry: { id: "lifetime.sliding", reason: "x" } };
    expect(staleWaiverWarning([contract], "accepted.json")).toBe(
      "STALE WAIVER: lifetime.sliding (MUST) passes, and accepted.json still waives it: remove the entry, or its next failure reads WAIVED and passes",
    );
    expect(staleWaiverWarning([staleMust, contract], "accepted.json")).toBe(
      "STALE WAIVERS: load.events_failed, lifetime.sliding (MUST) pass, and accepted.json still waives them: remove the entries, or their next failure reads WAIVED and passes",
    );
    expect(staleWaiverWarning([staleShould, waived], "accepted.json")).toBeUndefined();
  });
});
