import { runContract } from "../../../cli/contract/run-contract.ts";
import type { CheckResult } from "../../../contracts/index.ts";
import type { FaultName, RunningSandbox, SandboxOptions } from "../../../sandbox/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { sandboxContractSettings } from "../../support/sandbox-contract-settings.ts";

/** lifetime.sliding against a sandbox (the test's) whose tokens last 2 s, with the progress lines it sent. */
async function sliding(
  start: (options: Omit<SandboxOptions, "port">) => Promise<RunningSandbox>,
  faults: FaultName[],
): Promise<{ result: CheckResult; progress: string[] }> {
  const sandbox = await start({ expiresIn: 2, faults });
  const progress: string[] = [];
  const [result] = await runContract(
    sandboxContractSettings(
      sandbox,
      {
        profile: "full",
        only: ["lifetime.sliding"],
        seed: 7,
        runId: `lifetime-messages-${faults.join("-") || "none"}`,
      },
      { embedded: true },
    ),
    { onProgress: (_id, message) => progress.push(message) },
  );
  if (result === undefined) throw new Error("no result");
  return { result, progress };
}

describe("lifetime.sliding's words", () => {
  it("counts its uses in the right number while it waits", async ({ sandbox }) => {
    const { result, progress } = await sliding(sandbox, []);
    expect(result.status).toBe("PASS");
    expect(progress[0]).toMatch(/^lifetime\.sliding: 1 use so far: \d+ s to go$/);
    expect(progress.some((line) => / \d+ uses so far/.test(line))).toBe(true);
  }, 30_000);

  it("names a lifetime fixed from issue when the token was refused once expires_in had passed since it was asked for", async ({
    sandbox,
  }) => {
    const { result } = await sliding(sandbox, ["expiry-fixed"]);
    expect(result.status).toBe("FAIL");
    expect(result.message).toMatch(
      /^a lifetime fixed from issue: rejected \d+\.\d s after the token was requested \(expires_in 2 s\), though used \d+ times and last only \d+ ms before; expires_in must count from the last use \(401 /,
    );
  }, 30_000);
});
