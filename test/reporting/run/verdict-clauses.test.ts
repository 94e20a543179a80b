import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../contracts/index.ts";
import type { ReportFacts } from "../../../reporting/load/index.ts";
import type { PartDetails, PartOutcome } from "../../../reporting/run/index.ts";
import { verdictClauses, verdictLineOf } from "../../../reporting/run/verdict-clauses.ts";

const part = (
  id: string,
  verdict: PartOutcome["verdict"],
  extra: Partial<PartOutcome> = {},
  details: Partial<PartDetails> = {},
): PartDetails => ({
  outcome: {
    id,
    kind: "contract",
    title: id,
    command: "c",
    verdict,
    exitCode: 0,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
    ...extra,
  },
  files: [],
  ...details,
});

const waived: CheckResult = {
  id: "token.a",
  title: "t",
  area: "token",
  level: "SHOULD",
  rule: "r",
  status: "WAIVED",
  message: "",
  durationMs: 1,
  evidence: [],
};

describe("verdictClauses", () => {
  it("leads with the parts that did not pass, failed first, then those not run, and counts the passed", () => {
    const clauses = verdictClauses("aborted", [
      part("rotation", "skipped"),
      part("load-spike", "aborted", { note: "interrupted (received SIGTERM)" }),
      part("load-sustained", "undecided", { note: "k6 exited 107" }),
      part("contract", "failed", { gate: "1 FAIL (bearer.garbage), 37 PASS" }),
      part("load-soak", "skipped"),
      part("openapi", "passed"),
    ]);
    expect(clauses.title).toBe("ABORTED");
    expect(clauses.leading).toEqual([
      "contract: 1 FAIL (bearer.garbage), 37 PASS",
      "load-sustained: k6 exited 107",
      "load-spike: ABORTED (interrupted (received SIGTERM))",
      "not run: rotation, load-soak",
    ]);
    expect(clauses.count).toBe("1 of 6 parts passed");
    expect(clauses.staleWarning).toBeUndefined();
  });

  it("says FAILED or COULD NOT DECIDE for a part with neither gate nor note, and ABORTED alone", () => {
    const clauses = verdictClauses("failed", [
      part("a", "failed"),
      part("b", "undecided"),
      part("c", "aborted"),
    ]);
    expect(clauses.leading).toEqual(["a: FAILED", "b: COULD NOT DECIDE", "c: ABORTED"]);
  });

  it("trails with the passed parts whose gate is worth naming, and not a checks part that merely passed", () => {
    const facts = {} as ReportFacts;
    const clauses = verdictClauses("passed", [
      part(
        "contract",
        "passed",
        { gate: "38 PASS" },
        { checks: { suite: "s", durationMs: 1, checks: [], accepted: [] } },
      ),
      part(
        "rotation",
        "passed",
        { gate: "2 PASS, 1 WAIVED" },
        { checks: { suite: "s", durationMs: 1, checks: [waived], accepted: [] } },
      ),
      part(
        "load-sustained",
        "passed",
        { kind: "load", gate: "thresholds held; baseline UNCHANGED" },
        {
          load: {
            facts,
            thresholds: [],
            waived: [],
            accepted: [],
            verdictLine: "PASSED: thresholds held; baseline UNCHANGED",
          },
        },
      ),
    ]);
    expect(clauses.leading).toEqual([]);
    expect(clauses.count).toBe("3 of 3 parts passed");
    expect(clauses.trailing).toEqual([
      "rotation: 2 PASS, 1 WAIVED",
      "load-sustained: thresholds held; baseline UNCHANGED",
    ]);
  });

  it("says the run's stale waivers, from every part, in the leading clauses and a warning naming the ledger", () => {
    const stale = {
      state: "stale" as const,
      level: "MUST" as const,
      entry: { id: "lifetime.sliding", expires: "2027-01-31" },
    };
    const clauses = verdictClauses("passed", [
      part(
        "contract",
        "passed",
        {},
        {
          checks: { suite: "s", durationMs: 1, checks: [], accepted: [stale], acceptedFile: "accepted.json" },
        },
      ),
    ]);
    expect(clauses.leading).toEqual(["STALE WAIVER: lifetime.sliding"]);
    expect(clauses.staleWarning).toBe(
      "STALE WAIVER: lifetime.sliding (MUST) passes, and accepted.json still waives it until 2027-01-31: remove the entry, or its next failure reads WAIVED and passes",
    );
  });
});

describe("verdictLineOf", () => {
  it("joins the title, the leading clauses, the count and the trailing clauses", () => {
    expect(
      verdictLineOf({
        title: "FAILED",
        leading: ["contract: 1 FAIL (a)"],
        count: "1 of 2 parts passed",
        trailing: ["load: held"],
        staleWarning: undefined,
      }),
    ).toBe("FAILED — contract: 1 FAIL (a) · 1 of 2 parts passed · load: held");
    expect(
      verdictLineOf({
        title: "PASSED",
        leading: [],
        count: "1 of 1 part passed",
        trailing: [],
        staleWarning: undefined,
      }),
    ).toBe("PASSED — 1 of 1 part passed");
  });
});
