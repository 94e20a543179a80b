import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../contracts/index.ts";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { INSECURE_WARNING, renderConsoleSummary } from "../../../reporting/contract/index.ts";
import { contractRun } from "../../support/contract-run.ts";

function check(id: string, status: CheckResult["status"], level: CheckResult["level"] = "MUST"): CheckResult {
  return {
    id,
    title: id,
    area: id.split(".")[0] as CheckResult["area"],
    level,
    rule: "r",
    status,
    message: `${id} ${status.toLowerCase()}`,
    durationMs: 1,
    evidence: [],
  };
}

const RUN: ContractRun = contractRun(
  [
    check("events.accepted", "PASS"),
    check("token.issued", "PASS"),
    check("token.no-store", "WARN", "SHOULD"),
  ],
  { durationMs: 2500 },
);

const lines = (text: string) => text.trimEnd().split("\n");

describe("renderConsoleSummary", () => {
  it("groups the checks by area in the areas' order, in aligned columns, and ends with the verdict", () => {
    // Every id is padded to the longest of the run (events.accepted, 15 characters), so the columns line up.
    expect(lines(renderConsoleSummary(RUN))).toEqual([
      "Token issuance",
      "  PASS    token.issued     MUST    token.issued pass",
      "  WARN    token.no-store   SHOULD  token.no-store warn",
      "",
      "Event creation",
      "  PASS    events.accepted  MUST    events.accepted pass",
      "",
      "Verdict: PASSED — 1 WARN, 2 PASS (2.5 s, contract (fast))",
    ]);
  });

  it("pads ids to the longest one, and to at least ten characters", () => {
    const short = lines(renderConsoleSummary({ ...RUN, checks: [check("token.a", "PASS")] }));
    expect(short[1]).toBe("  PASS    token.a     MUST    token.a pass");
  });

  it("lists no check of a target it could not test, and says so in the verdict", () => {
    const text = renderConsoleSummary({
      ...RUN,
      couldNotTest: "no token",
      checks: [check("token.issued", "SKIP")],
    });
    expect(lines(text)).toEqual([
      "Verdict: COULD NOT DECIDE (could not test the target: see above) — 1 SKIP (2.5 s, contract (fast))",
    ]);
  });

  it("says why an interrupted run stopped, and that it ran on the embedded sandbox", () => {
    const text = renderConsoleSummary({
      ...RUN,
      aborted: "interrupted (received SIGINT)",
      target: { ...RUN.target, embedded: true },
    });
    expect(lines(text).at(-1)).toBe(
      "Verdict: ABORTED (interrupted (received SIGINT)) — 1 WARN, 2 PASS (2.5 s, contract (fast), embedded sandbox — not your API)",
    );
  });

  it("warns of --insecure, then names the reports, before the verdict", () => {
    const text = renderConsoleSummary(
      { ...RUN, target: { ...RUN.target, insecure: true } },
      "Reports: r/summary.md",
    );
    expect(lines(text).slice(-3)).toEqual([
      `WARNING: ${INSECURE_WARNING}`,
      "Reports: r/summary.md",
      "Verdict: PASSED — 1 WARN, 2 PASS (2.5 s, contract (fast))",
    ]);
  });

  it("lists the ledger's outcomes under its file's name", () => {
    const entry = { id: "token.no-store", reason: "CDN strips it", ticket: "API-2", expires: "2027-01-31" };
    const text = renderConsoleSummary({
      ...RUN,
      acceptedFile: "accepted.json",
      accepted: [{ entry, state: "unobserved", detail: "its check did not run" }],
    });
    const at = lines(text).indexOf("Accepted deviations (accepted.json)");
    expect(at).toBeGreaterThan(0);
    expect(lines(text)[at + 1]).toMatch(/^ {2}UNOBSERVED token\.no-store: its check did not run$/);
  });
});
