import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../contracts/index.ts";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { renderResultsJson } from "../../../reporting/contract/results-json.ts";
import { checkResult } from "../../support/check-result.ts";
import { contractRun } from "../../support/contract-run.ts";

const check = (id: string, status: CheckResult["status"]): CheckResult =>
  checkResult(id, status, { message: `${status} <b>&</b>`, durationMs: 3 });

const RUN: ContractRun = contractRun([check("token.a", "PASS"), check("token.b", "FAIL")], { seed: 42 });

const parse = (run: ContractRun) => JSON.parse(renderResultsJson(run)) as Record<string, unknown>;

describe("renderResultsJson", () => {
  it("writes the whole run, its verdict and counts, as JSON ending in a newline", () => {
    const text = renderResultsJson(RUN);
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({
      tool: RUN.tool,
      suite: "contract (fast)",
      seed: 42,
      startedAt: "2026-01-01T00:00:00.000Z",
      durationMs: 1500,
      verdict: "failed",
      counts: { PASS: 1, WARN: 0, FAIL: 1, ERROR: 0, SKIP: 0, WAIVED: 0 },
      target: RUN.target,
      checks: RUN.checks,
    });
  });

  it("adds the profile, why the run stopped or could not test, and the overrides only when there are some", () => {
    const json = parse({
      ...RUN,
      profile: "full",
      aborted: "interrupted (received SIGINT)",
      couldNotTest: "no token",
      overrides: ["--rate"],
    });
    expect(json).toMatchObject({
      profile: "full",
      verdict: "aborted",
      aborted: "interrupted (received SIGINT)",
      couldNotTest: "no token",
      overrides: ["--rate"],
    });
    expect(Object.keys(parse({ ...RUN, overrides: [] }))).not.toContain("overrides");
  });

  it("names the ledger with what became of its entries, and keeps both out without one", () => {
    const entry = { id: "token.b", reason: "known", ticket: "API-1", expires: "2027-01-31" };
    const json = parse({
      ...RUN,
      acceptedFile: "accepted.json",
      accepted: [{ entry, state: "waived", detail: "d" }],
    });
    expect(json.acceptedFile).toBe("accepted.json");
    expect(json.accepted).toEqual([{ entry, state: "waived", detail: "d" }]);
    expect(Object.keys(parse(RUN))).not.toContain("acceptedFile");
  });
});
