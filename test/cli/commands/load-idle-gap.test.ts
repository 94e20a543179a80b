import { readFile } from "node:fs/promises";
import path from "node:path";
import { EXPIRY, METRIC, TOKEN_FAILURES, tokenRefreshes } from "../../../load/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import {
  accepted,
  beforeAllK6,
  count,
  expectNoSecretInLoads,
  loadTest as it,
  LOAD_EXPIRES_IN,
  LOAD_RUN_TIMEOUT_MS,
  loadSandbox,
  targetOf,
} from "../../support/load-runs.ts";

/**
 * Real k6 runs of idle-gap, the scenario that proves sliding expiry: its tokens idle through gaps shorter and longer
 * than a 2 s lifetime, so each run waits about 12 s whatever the machine.
 */

beforeAllK6();

describe("load: real k6 runs against the sandbox", () => {
  it(
    "idle-gap passes against the correct sandbox: one token per cycle, used past expires_in, through a gap over half of it, refreshed after each long gap",
    async ({ loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads));
      const run = await loads.run(
        ["idle-gap", "--vus", "2", "--quiet", ...targetOf(sb).args],
        targetOf(sb).env,
      );
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/ of about /);
      const { summary } = run;
      // 2 VUs × 2 cycles: every long gap ends in a confirmed expiry and exactly one refresh.
      expect(count(summary, EXPIRY.idle)).toBe(4);
      expect(count(summary, tokenRefreshes("rejected"))).toBe(4);
      expect(count(summary, tokenRefreshes("idle")) + count(summary, tokenRefreshes("lifetime"))).toBe(0);
      expect(summary.metrics[TOKEN_FAILURES]?.values.count).toBe(0);
      expect(count(summary, `${METRIC.tokenRequests}{reason:rejected}`)).toBe(4);
      expect(count(summary, METRIC.tokenRequests)).toBe(2 + 4);
      expect(count(summary, EXPIRY.unexpected)).toBe(0);
      expect(count(summary, EXPIRY.outlived)).toBe(0);
      // Each cycle's token: accepted past expires_in + margin after its issue once, and after its mid gap.
      expect(count(summary, EXPIRY.extended)).toBe(4);
      expect(count(summary, EXPIRY.survived)).toBe(4);
      // 2 VUs × (1 + 2 cycles × (mid + 3 short + long)) bursts × 3 events, all accepted.
      expect(accepted(summary)).toBe(2 * 11 * 3);
      expect(summary.harness.verdict.level).toBe("held");
      expect(await readFile(path.join(run.reportDir, "summary.md"), "utf8")).toContain(
        "## Sliding expiry: HELD",
      );
    },
    LOAD_RUN_TIMEOUT_MS,
  );

  it(
    "idle-gap fails against a target whose idle tokens never expire",
    async ({ loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads, ["expiry-never"]));
      const run = await loads.run(["idle-gap", "--vus", "2", ...targetOf(sb).args], targetOf(sb).env);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.outlived)).toBe(4);
      expect(count(run.summary, EXPIRY.idle)).toBe(0);
      // One token per VU all run long: no second token to be seen used past expires_in after its issue.
      expect(run.summary.harness.failedThresholds.map((t) => `${t.metric} ${t.expression}`).sort()).toEqual([
        "token_expiries{kind:extended} count>=4",
        "token_expiries{kind:idle} count>=4",
        "token_expiries{kind:outlived} count==0",
      ]);
      expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
    },
    LOAD_RUN_TIMEOUT_MS,
  );

  it.for([
    // The token dies expires_in after its issue however busy it is: refused within the short gaps past expires_in.
    ["expiry-fixed", ["token_expiries{kind:extended} count>=4"]],
    // Idle tokens die after half of expires_in: refused after the gap between half of expires_in and expires_in, and
    // the token that replaces it mid-cycle is not used long enough to pass expires_in.
    ["expiry-early", ["token_expiries{kind:extended} count>=4", "token_expiries{kind:survived} count>=4"]],
  ] as const)(
    "idle-gap fails against the sandbox fault %s: a token in use refused, and the rule it breaks never seen to hold",
    { timeout: LOAD_RUN_TIMEOUT_MS },
    async ([fault, unproven], { loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads, [fault]));
      const run = await loads.run(["idle-gap", "--vus", "2", ...targetOf(sb).args], targetOf(sb).env);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.unexpected)).toBeGreaterThan(0);
      expect(run.summary.harness.failedThresholds.map((t) => `${t.metric} ${t.expression}`).sort()).toEqual(
        ["token_expiries{kind:unexpected} count==0", ...unproven].sort(),
      );
      expect(run.summary.harness.verdict.level).toBe("broken");
      expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
      expect(run.stdout).not.toContain("PASSED");
    },
  );

  describe("against an OAuth server whose tokens expire a fixed time after issue (exp in whole seconds)", () => {
    it(
      "idle-gap fails: a token in use refused, and none seen valid past expires_in after its issue",
      async ({ loads, fixedLifetime }) => {
        const target = await fixedLifetime(LOAD_EXPIRES_IN);
        const run = await loads.run(["idle-gap", "--vus", "2", ...target.args], target.env);
        expect(run.code).toBe(1);
        expect(count(run.summary, EXPIRY.unexpected)).toBeGreaterThan(0);
        expect(count(run.summary, EXPIRY.extended)).toBe(0);
        expect(run.summary.harness.failedThresholds.map((t) => `${t.metric} ${t.expression}`)).toEqual(
          expect.arrayContaining([
            "token_expiries{kind:unexpected} count==0",
            "token_expiries{kind:extended} count>=4",
          ]),
        );
        expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
      },
      LOAD_RUN_TIMEOUT_MS,
    );
  });
});

describe("load: secrets", () => {
  it("appear in no output and no report file (dashboard data included)", async ({ loads }) => {
    await expectNoSecretInLoads(loads);
  });
});
