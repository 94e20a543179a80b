import type { Finding } from "../../../contracts/checks/check.ts";
import type { CheckDefinition, CheckLevel } from "../../../contracts/index.ts";
import { executeCheck } from "../../../contracts/index.ts";
import {
  PrerequisiteError,
  RedirectAnswerError,
  ServerFailureError,
  TransportError,
  UndecidableError,
} from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { idleProbe } from "../../support/idle-probe.ts";

/** A check at `level` whose run returns or throws what `outcome` gives. */
function check(level: CheckLevel, outcome: () => Finding): CheckDefinition {
  return {
    id: "token.synthetic",
    title: "A synthetic check",
    area: "token",
    level,
    rule: "Synthetic rule",
    profile: "fast",
    run: async () => outcome(),
  };
}

describe("executeCheck", () => {
  it("turns a finding into a status by the check's level", async () => {
    const cases: ReadonlyArray<readonly [CheckLevel, Finding["outcome"], string]> = [
      ["MUST", "holds", "PASS"],
      ["MUST", "broken", "FAIL"],
      ["SHOULD", "broken", "WARN"],
      ["INFO", "broken", "PASS"],
      ["MUST", "skipped", "SKIP"],
      ["INFO", "observed", "PASS"],
      ["MUST", "caveat", "WARN"],
    ];
    for (const [level, outcome, status] of cases) {
      const result = await executeCheck(
        check(level, () => ({ outcome, message: "said" })),
        idleProbe(),
      );
      expect([level, outcome, result.status]).toEqual([level, outcome, status]);
      expect(result).toMatchObject({
        id: "token.synthetic",
        title: "A synthetic check",
        area: "token",
        level,
        rule: "Synthetic rule",
        message: "said",
      });
    }
  });

  it("fails a 5xx or a 3xx as a MUST under the rule it broke, whatever the check's level", async () => {
    const server = await executeCheck(
      check("SHOULD", () => {
        throw new ServerFailureError("the server failed", "Endpoints §2; RFC 9110 §15.6");
      }),
      idleProbe(),
    );
    expect(server).toMatchObject({
      status: "FAIL",
      level: "MUST",
      rule: "Endpoints §2; RFC 9110 §15.6",
      message: "the server failed",
    });
    const redirect = await executeCheck(
      check("INFO", () => {
        throw new RedirectAnswerError("answered 302", "Endpoints §1; Authentication rule 2");
      }),
      idleProbe(),
    );
    expect(redirect).toMatchObject({
      status: "FAIL",
      level: "MUST",
      rule: "Endpoints §1; Authentication rule 2",
    });
    const must = await executeCheck(
      check("MUST", () => {
        throw new ServerFailureError("the server failed", "Endpoints §2; RFC 9110 §15.6");
      }),
      idleProbe(),
    );
    expect([must.status, must.rule]).toEqual(["FAIL", "Synthetic rule"]);
  });

  it("SKIPs on a failed premise, and cannot decide on a transport failure or late answers", async () => {
    const thrown = (error: unknown) =>
      executeCheck(
        check("MUST", () => {
          throw error;
        }),
        idleProbe(),
      );
    expect(await thrown(new PrerequisiteError("premise failed: no token"))).toMatchObject({
      status: "SKIP",
      message: "premise failed: no token",
    });
    expect(await thrown(new TransportError("connection refused", "ECONNREFUSED"))).toMatchObject({
      status: "ERROR",
      message: "could not decide: connection refused",
    });
    expect(await thrown(new UndecidableError("too slow"))).toMatchObject({
      status: "ERROR",
      message: "could not decide: too slow",
    });
  });

  it("never lets an exception escape: anything else is a harness error, never a FAIL", async () => {
    const bug = await executeCheck(
      check("MUST", () => {
        throw new TypeError("x is undefined");
      }),
      idleProbe(),
    );
    expect([bug.status, bug.message]).toEqual(["ERROR", "harness error: x is undefined"]);
    const odd = await executeCheck(
      check("MUST", () => {
        throw "a string";
      }),
      idleProbe(),
    );
    expect([odd.status, odd.message]).toEqual(["ERROR", "harness error: a string"]);
  });

  it("makes a message inert, and carries the probe's evidence and exploration", async () => {
    const probe = idleProbe();
    probe.evidence.push({ label: "one", request: { method: "GET", url: "u", headers: {} }, curl: "curl u" });
    probe.exploration = { seed: 1, coverage: "first", searchRuns: 0, classes: [] };
    const result = await executeCheck(
      check("MUST", () => ({ outcome: "broken", message: "got \u001b[2J\u0007 back" })),
      probe,
    );
    expect(result.message).not.toContain("\u001b");
    expect(result.message).not.toContain("\u0007");
    expect(result.message).toMatch(/^got .+ back$/);
    expect(result.evidence).toHaveLength(1);
    expect(result.exploration).toEqual({ seed: 1, coverage: "first", searchRuns: 0, classes: [] });
    expect(result).not.toHaveProperty("counterexample");
    expect(Number.isInteger(result.durationMs) && result.durationMs >= 0).toBe(true);
  });
});
