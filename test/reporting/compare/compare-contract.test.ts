import { describe, expect, it } from "vitest";
import type { ContractRunRecord } from "../../../reporting/compare/index.ts";
import { compareContract } from "../../../reporting/compare/index.ts";

const run = (checks: Record<string, string>, extra: Partial<ContractRunRecord> = {}): ContractRunRecord => ({
  profile: "fast",
  clientId: "ci",
  baseUrl: "https://api.example/v1",
  checks: Object.entries(checks).map(([id, status]) => ({ id, status })),
  ...extra,
});

describe("compareContract", () => {
  it("sorts each check into what changed, by id, and counts what did not", () => {
    const comparison = compareContract(
      run({
        "token.a": "PASS",
        "token.b": "PASS",
        "bearer.c": "FAIL",
        "events.d": "ERROR",
        "events.e": "PASS",
        "old.f": "PASS",
        "x.g": "WARN",
      }),
      run({
        "token.a": "PASS",
        "token.b": "FAIL",
        "bearer.c": "PASS",
        "events.d": "FAIL",
        "events.e": "SKIP",
        "new.h": "FAIL",
        "x.g": "WARN",
      }),
    );
    expect(comparison).toEqual({
      differences: [],
      newlyFailing: [
        { id: "events.d", baseline: "ERROR", candidate: "FAIL" },
        { id: "token.b", baseline: "PASS", candidate: "FAIL" },
      ],
      fixed: [{ id: "bearer.c", baseline: "FAIL", candidate: "PASS" }],
      newlyRun: [{ id: "new.h", baseline: undefined, candidate: "FAIL" }],
      noLongerRun: [{ id: "old.f", baseline: "PASS", candidate: undefined }],
      otherChanges: [{ id: "events.e", baseline: "PASS", candidate: "SKIP" }],
      unchanged: 2,
    });
  });

  it("counts a check that failed on both sides as unchanged, not newly failing", () => {
    const comparison = compareContract(run({ "token.a": "FAIL" }), run({ "token.a": "FAIL" }));
    expect(comparison.newlyFailing).toEqual([]);
    expect(comparison.unchanged).toBe(1);
  });

  it("calls FAIL to WARN another change, not a fix", () => {
    const comparison = compareContract(run({ "token.a": "FAIL" }), run({ "token.a": "WARN" }));
    expect(comparison.fixed).toEqual([]);
    expect(comparison.otherChanges).toEqual([{ id: "token.a", baseline: "FAIL", candidate: "WARN" }]);
  });

  it("names what differs between the runs, unknown where a side did not record it", () => {
    const { differences } = compareContract(
      run({}, { profile: "fast", clientId: "a" }),
      run({}, { profile: "full", clientId: "b", baseUrl: "https://green.example/v1" }),
    );
    expect(differences).toEqual([
      "profile fast → full",
      "client a → b",
      "target https://api.example/v1 → https://green.example/v1",
    ]);
    const { profile: _, ...noProfile } = run({});
    expect(compareContract(noProfile, run({})).differences).toEqual(["profile unknown → fast"]);
  });

  it("does not call two runs on the embedded sandbox different targets, but one against a deployed API is", () => {
    const sandbox = (port: number) => run({}, { embedded: true, baseUrl: `http://127.0.0.1:${port}` });
    expect(compareContract(sandbox(40001), sandbox(40002)).differences).toEqual([]);
    expect(compareContract(sandbox(40001), run({})).differences).toEqual([
      "target the embedded sandbox → https://api.example/v1",
    ]);
  });
});
