import { describe, expect, it } from "vitest";
import { acceptanceOf, judgeEntry, unobserved } from "../../../reporting/accepted/entry-outcome.ts";
import type { LedgerEntry } from "../../../reporting/accepted/index.ts";

const entry: LedgerEntry = {
  id: "lifetime.sliding",
  reason: "fixed lifetime",
  ticket: "API-1",
  expires: "2027-01-31",
};
const bare: LedgerEntry = { id: "events.idempotency", reason: "not yet" };

describe("acceptanceOf", () => {
  it("carries the entry's reason, ticket and last day, and no key for what the entry leaves out", () => {
    expect(acceptanceOf(entry, "waived")).toEqual({
      state: "waived",
      reason: "fixed lifetime",
      ticket: "API-1",
      expires: "2027-01-31",
    });
    const plain = acceptanceOf(bare, "stale");
    expect(plain).toEqual({ state: "stale", reason: "not yet" });
    expect(Object.keys(plain)).toEqual(["state", "reason"]);
  });
});

describe("judgeEntry", () => {
  it("calls an entry whose check passed stale, expired or not", () => {
    const detail = "passes now: remove the entry";
    expect(judgeEntry(entry, false, false, "MUST")).toEqual({ entry, state: "stale", detail, level: "MUST" });
    expect(judgeEntry(entry, false, true, "SHOULD")).toEqual({
      entry,
      state: "stale",
      detail,
      level: "SHOULD",
    });
  });

  it("waives a failing check while the entry is in force, and fails it again once expired", () => {
    expect(judgeEntry(entry, true, false, "MUST")).toEqual({
      entry,
      state: "waived",
      detail: "fails, waived: fixed lifetime",
      level: "MUST",
    });
    expect(judgeEntry(entry, true, true, "MUST")).toEqual({
      entry,
      state: "expired",
      detail: "accepted until 2027-01-31, expired: it fails again",
      level: "MUST",
    });
  });
});

describe("unobserved", () => {
  it("says why the entry's check proved nothing, with no level", () => {
    expect(unobserved(bare, "the check was skipped")).toEqual({
      entry: bare,
      state: "unobserved",
      detail: "not observed: the check was skipped",
    });
  });
});
