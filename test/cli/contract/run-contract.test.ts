import { runContract } from "../../../cli/contract/run-contract.ts";
import type { CheckResult, ContractSettings } from "../../../contracts/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { sandboxContractSettings } from "../../support/sandbox-contract-settings.ts";

function settingsFor(sandbox: RunningSandbox, only: readonly string[]): ContractSettings {
  return sandboxContractSettings(sandbox, { profile: "fast", only, seed: 11, runId: "run-contract-test" });
}

/** Each of these tests starts vitest for the suite: on a loaded machine that takes a while. */
const STARTS_VITEST = { timeout: 60_000 };

describe("runContract", () => {
  it(
    "returns one result per selected check in catalogue order, leaving the exit code and the CLI's signal handlers as they were",
    STARTS_VITEST,
    async ({ sandbox }) => {
      const target = await sandbox(["bearer-alg-none"]);
      const handlersBefore = process.listeners("SIGINT");
      const exitCodeBefore = process.exitCode;
      const seen: CheckResult[] = [];
      const results = await runContract(settingsFor(target, ["bearer.alg-none", "token.issued"]), {
        onResult: (result) => seen.push(result),
      });
      expect(results.map((result) => [result.id, result.status])).toEqual([
        ["token.issued", "PASS"],
        ["bearer.alg-none", "FAIL"],
      ]);
      expect(seen.map((result) => result.id).sort()).toEqual(["bearer.alg-none", "token.issued"]);
      // A FAIL throws inside vitest, which would set a failing exit code: the harness decides its own.
      expect(process.exitCode).toBe(exitCodeBefore);
      expect(process.listeners("SIGINT")).toEqual(handlersBefore);
    },
  );

  it("runs no check once the signal has aborted: each selected check is ERROR, interrupted", async ({
    sandbox,
  }) => {
    const target = await sandbox();
    const controller = new AbortController();
    controller.abort(new Error("received SIGINT"));
    const results = await runContract(settingsFor(target, ["token.issued", "bearer.missing"]), {
      signal: controller.signal,
    });
    expect(results.map((result) => [result.id, result.status, result.message])).toEqual([
      ["token.issued", "ERROR", "could not decide: the run was interrupted before this check finished"],
      ["bearer.missing", "ERROR", "could not decide: the run was interrupted before this check finished"],
    ]);
  });
});
