import type { FaultName } from "../../sandbox/index.ts";
import { checkAgainst, EXPECTED, FULL_TIMEOUT_MS, ids } from "../support/fault-matrix.ts";
import { describe, expect, it } from "../support/fixtures.ts";

// The full profile's part of the matrix: each run waits out a 5 s token lifetime, about 7 s whatever the machine.

describe("the contract suite against the sandbox", () => {
  it("passes every check of the full profile against the correct sandbox", {
    timeout: FULL_TIMEOUT_MS,
  }, async ({ sandbox }) => {
    const results = await checkAgainst(sandbox, [], "full");
    expect(results.filter((result) => result.status !== "PASS")).toEqual([]);
    expect(results.map((result) => result.id)).toContain("lifetime.sliding");
  });

  it("fails the full profile in one run against a server that answers one valid event in seven with 500", {
    timeout: FULL_TIMEOUT_MS,
  }, async ({ sandbox }) => {
    const results = await checkAgainst(sandbox, ["events-500-one-in-seven"], "full", "post", 3);
    const failed = results.filter((result) => result.status === "FAIL");
    expect(failed.length).toBeGreaterThan(0);
    for (const result of failed) {
      expect(result.level).toBe("MUST");
      expect(result.message).toMatch(/the server failed on "[^"]+": 500 |received 500 /);
      expect(result.evidence.some((evidence) => evidence.response?.status === 500)).toBe(true);
    }
    // A 500 is never a reason to skip, nor a refusal: nothing is skipped and nothing else goes wrong.
    expect(results.filter((result) => !["PASS", "FAIL"].includes(result.status))).toEqual([]);
  });

  for (const [fault, expected] of Object.entries(EXPECTED)) {
    if (expected?.profile !== "full") continue;
    it(`fails exactly the expected checks under ${fault}`, { timeout: FULL_TIMEOUT_MS }, async ({
      sandbox,
    }) => {
      const results = await checkAgainst(
        sandbox,
        [fault as FaultName],
        "full",
        expected?.clientAuth ?? "post",
        undefined,
        expected?.fuzzRuns,
      );
      expect({
        fail: ids(results, "FAIL"),
        warn: ids(results, "WARN"),
        error: ids(results, "ERROR"),
      }).toEqual({
        fail: [...(expected?.fail ?? [])].sort(),
        warn: [...(expected?.warn ?? [])].sort(),
        error: [],
      });
    });
  }
});
