// The suite runs only inside the vitest that runContract starts: these tests run it there, against the sandbox.
import { runContract } from "../../../cli/contract/run-contract.ts";
import type { ContractSettings } from "../../../contracts/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { sandboxContractSettings } from "../../support/sandbox-contract-settings.ts";

function settingsFor(sandbox: RunningSandbox, only: readonly string[]): ContractSettings {
  return sandboxContractSettings(sandbox, { profile: "fast", only, seed: 12, runId: "contract-suite-test" });
}

/** Each of these tests starts vitest for the suite: on a loaded machine that takes a while. */
const STARTS_VITEST = { timeout: 60_000 };

describe("the contract suite", () => {
  it(
    "hands over a failing check's result with its evidence, the client secret redacted in every result",
    STARTS_VITEST,
    async ({ sandbox }) => {
      const target = await sandbox(["token-wrong-secret-accepted"]);
      const secret = target.clients[0]?.clientSecret ?? "";
      const results = await runContract(settingsFor(target, ["token.issued", "token.wrong-secret-refused"]));
      expect(results.map((result) => [result.id, result.status])).toEqual([
        ["token.issued", "PASS"],
        ["token.wrong-secret-refused", "FAIL"],
      ]);
      const failed = results[1];
      expect(failed?.message).not.toBe("");
      expect(failed?.evidence.length).toBeGreaterThan(0);
      const written = JSON.stringify(results);
      expect(secret.length).toBeGreaterThan(0);
      expect(written).not.toContain(secret);
      expect(written).not.toContain(encodeURIComponent(secret));
      const issued = JSON.stringify(results[0]?.evidence);
      expect(issued).toContain("client_secret=<CLIENT_SECRET>");
    },
  );

  it(
    "holds every check to the run's deadline it was given: one already past decides no check",
    STARTS_VITEST,
    async ({ sandbox }) => {
      const target = await sandbox();
      const settings: ContractSettings = {
        ...settingsFor(target, ["token.issued", "bearer.missing"]),
        deadline: { startedAt: Date.now() - 60_000, budgetMs: 1_000, fixed: true },
      };
      const results = await runContract(settings);
      expect(results.map((result) => result.status)).toEqual(["ERROR", "ERROR"]);
      for (const result of results) {
        // Cut before it is sent or just after: the timing decides which, never the verdict.
        expect(result.message).toMatch(
          /^could not decide: (not sent|no answer within \d+ ms): the run's deadline of 1\.0 s \(--run-timeout\) expired$/,
        );
      }
    },
  );
});
