import { PassThrough } from "node:stream";
import type { CommandIo } from "../../../cli/command.ts";
import { executeContract } from "../../../cli/contract/execute-contract.ts";
import { prepareContract, readContractOptions } from "../../../cli/contract/prepare-contract.ts";
import type { ContractOptionValues } from "../../../cli/options/contract-options.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function capture(env: NodeJS.ProcessEnv = {}): { io: CommandIo; stderr: () => string } {
  const stderr = new PassThrough().setEncoding("utf8");
  let written = "";
  stderr.on("data", (chunk: string) => {
    written += chunk;
  });
  return {
    io: { stdout: new PassThrough(), stderr, env, signal: new AbortController().signal },
    stderr: () => written,
  };
}

async function execute(options: ContractOptionValues, env: NodeJS.ProcessEnv = {}) {
  const { io, stderr } = capture(env);
  const prepared = await prepareContract(await readContractOptions(options, io));
  try {
    return { prepared, execution: await executeContract(prepared, io), stderr: stderr() };
  } finally {
    await prepared.sandbox?.close();
  }
}

/** Each of these tests starts vitest for the suite: on a loaded machine that takes a while. */
const STARTS_VITEST = { timeout: 60_000 };

describe("executeContract", () => {
  it("skips every selected check, sending nothing to the suite, when the preflight cannot reach the target", async ({
    tmpDir,
    sandbox,
    targetEnv,
  }) => {
    const gone = await sandbox();
    const env = targetEnv(gone, "the-secret-of-a-target-gone");
    await gone.close();
    const { execution, prepared, stderr } = await execute(
      { "report-dir": tmpDir, only: ["token.issued", "bearer.missing"], quiet: true },
      env,
    );
    expect(execution.couldNotTest).toBeDefined();
    expect(execution.target).toBe(prepared.configured);
    expect(execution.checks.map((check) => [check.id, check.status, check.message])).toEqual([
      ["token.issued", "SKIP", "not run: the preflight could not test the target"],
      ["bearer.missing", "SKIP", "not run: the preflight could not test the target"],
    ]);
    const lines = stderr.split("\n");
    expect(lines[0]).toBe(
      `Contract fast profile against ${gone.baseUrl} (token endpoint ${gone.tokenUrl}, client authentication post)`,
    );
    expect(lines[1]).toBe(`event-harness: ${execution.couldNotTest}`);
    expect(stderr).not.toContain("Deadline:");
    expect(stderr).not.toContain("the-secret-of-a-target-gone");
  });

  it(
    "against the embedded sandbox: says so with its faults, the full profile's waits and deadlines, then runs the checks",
    STARTS_VITEST,
    async ({ tmpDir }) => {
      const { execution, prepared, stderr } = await execute({
        "report-dir": tmpDir,
        profile: "full",
        only: ["bearer.alg-none"],
        "sandbox-fault": ["bearer-alg-none"],
        "sandbox-expires-in": "5",
        "run-timeout": "90",
        quiet: true,
      });
      expect(execution.couldNotTest).toBeUndefined();
      expect(execution.checks.map((check) => [check.id, check.status])).toEqual([
        ["bearer.alg-none", "FAIL"],
      ]);
      expect(execution.target.baseUrl).toBe(prepared.configured.baseUrl);
      expect(stderr.split("\n")).toEqual([
        `Contract full profile against ${prepared.configured.baseUrl} (token endpoint ${prepared.configured.tokenUrl}, client authentication post), embedded sandbox — not your API with fault bearer-alg-none`,
        // 5 s plus the larger of 2 s and 10 % of it.
        "Sliding-expiry probes wait about expires_in + max(2 s, 10 %) = 7 s.",
        "Deadline: 10.0 s per request, 1 min 30 s for the run (--run-timeout).",
        "",
      ]);
    },
  );
});
