import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../contracts/index.ts";
import type { ReportFacts } from "../../../reporting/load/index.ts";
import type { CapacityDigest, LoadSummary, PartDetails, PartOutcome } from "../../../reporting/run/index.ts";
import { gateWorthNaming, partGate } from "../../../reporting/run/part-gate.ts";
import { checkResult as check } from "../../support/check-result.ts";
import { capacityDigest } from "../../support/run-part-details.ts";

const OUTCOME: PartOutcome = {
  id: "p",
  kind: "load",
  title: "p",
  command: "c",
  verdict: "passed",
  exitCode: 0,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1,
};

const FACTS = {} as ReportFacts;
const load = (extra: Partial<LoadSummary> = {}): PartDetails => ({
  outcome: OUTCOME,
  files: [],
  load: { facts: FACTS, thresholds: [], waived: [], accepted: [], ...extra },
});
const capacity = (verdictLine: string | undefined): PartDetails => ({
  outcome: OUTCOME,
  files: [],
  capacity: { ...capacityDigest, verdictLine, broken: undefined } satisfies CapacityDigest,
});

const checks = (
  list: CheckResult[],
  accepted: NonNullable<PartDetails["checks"]>["accepted"] = [],
): PartDetails => ({
  outcome: { ...OUTCOME, kind: "contract" },
  files: [],
  checks: { suite: "contract", durationMs: 1, checks: list, accepted },
});

describe("partGate", () => {
  it("takes a load part's verdict line without its first words, and without its stale-waiver clause", () => {
    expect(partGate(load({ verdictLine: "PASSED: thresholds held; baseline UNCHANGED" }))).toBe(
      "thresholds held; baseline UNCHANGED",
    );
    expect(partGate(load({ verdictLine: "COULD NOT DECIDE: no event was sent" }))).toBe("no event was sent");
    expect(partGate(load({ verdictLine: "PASSED: thresholds held; STALE WAIVERS: a, b" }))).toBe(
      "thresholds held",
    );
  });

  it("takes a capacity search's verdict line the same way", () => {
    expect(partGate(capacity("PASSED: capacity 40 events/s; STALE WAIVER: x"))).toBe("capacity 40 events/s");
    expect(partGate(capacity(undefined))).toBeUndefined();
  });

  it("names the crossed thresholds the ledger did not waive when a load part wrote no verdict line", () => {
    const gate = partGate(
      load({
        thresholds: [
          { metric: "events_failed", expression: "rate<0.01", ok: false, observed: "rate=0.05" },
          { metric: "http_req_duration", expression: "p(95)<500", ok: false, observed: undefined },
          { metric: "checks", expression: "rate>0.9", ok: true, observed: undefined },
        ],
        waived: [{ metric: "http_req_duration", expression: "p(95)<500" }],
      }),
    );
    expect(gate).toBe("1 threshold crossed: events_failed rate<0.01 (rate=0.05)");
    expect(
      partGate(load({ thresholds: [{ metric: "m", expression: "e", ok: true, observed: undefined }] })),
    ).toBeUndefined();
  });

  it("counts a checks part's results, naming what failed, with its ledger's notes", () => {
    expect(partGate(checks([check("token.a", "FAIL"), check("token.b", "PASS")]))).toBe(
      "1 FAIL (token.a), 1 PASS",
    );
    expect(
      partGate(
        checks([check("token.a", "PASS")], [{ state: "expired", entry: { id: "token.z" }, level: "SHOULD" }]),
      ),
    ).toBe("1 PASS; ledger: 1 EXPIRED");
    expect(partGate(checks([]))).toBeUndefined();
    expect(partGate({ outcome: OUTCOME, files: [] })).toBeUndefined();
  });
});

describe("gateWorthNaming", () => {
  it("names every load part's and capacity search's gate", () => {
    expect(gateWorthNaming(load({ verdictLine: "PASSED: thresholds held" }))).toBe(true);
    expect(gateWorthNaming(capacity("PASSED: capacity 40 events/s"))).toBe(true);
    expect(gateWorthNaming(load())).toBe(false);
  });

  it("names a checks part's gate only when its ledger waived a check or asks for a look", () => {
    expect(gateWorthNaming(checks([check("token.a", "PASS")]))).toBe(false);
    expect(gateWorthNaming(checks([check("token.a", "WAIVED")]))).toBe(true);
    expect(
      gateWorthNaming(checks([check("token.a", "PASS")], [{ state: "unobserved", entry: { id: "x" } }])),
    ).toBe(true);
    // A stale waiver of a MUST check has its own, louder clause: it is not the ledger's quiet note.
    expect(
      gateWorthNaming(
        checks([check("token.a", "PASS")], [{ state: "stale", entry: { id: "x" }, level: "MUST" }]),
      ),
    ).toBe(false);
  });
});
