import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { PROPERTY_CHECK_IDS } from "../../../contracts/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import type { SlowInputGateway } from "../../support/slow-input-gateway.ts";
import { startSlowInputGateway } from "../../support/slow-input-gateway.ts";

const INPUT_CHECKS = PROPERTY_CHECK_IDS;

interface Results {
  readonly verdict: string;
  readonly checks: readonly { id: string; status: string; message: string }[];
}

/** The default profile through the gateway, each check's share of --fuzz-time 1 s being 200 ms. */
async function defaultProfile(gateway: SlowInputGateway, dir: string) {
  const run = await runInProcess(
    contractCommand,
    ["--fuzz-time", "1", "--audience", gateway.audience, "--report-dir", dir],
    gateway.env,
  );
  const results = JSON.parse(await readFile(join(dir, "results.json"), "utf8")) as Results;
  return { run, results, inputs: results.checks.filter((check) => INPUT_CHECKS.includes(check.id)) };
}

describe("contract, default profile: a target that fails the input stage slowly never passes", () => {
  it("every stage input answered 500 after longer than a check's share: every check of the stage FAILs, exit 1", {
    timeout: 300_000,
  }, async ({ sandbox, tmpDir }) => {
    const gateway = await startSlowInputGateway(await sandbox(), {
      status: 500,
      body: '{"error":"upstream timed out"}',
      headers: { "content-type": "application/json" },
      delayMs: 300,
    });
    try {
      const { run, results, inputs } = await defaultProfile(gateway, tmpDir);
      expect(run.code, run.stdout).toBe(1);
      expect(results.verdict).toBe("failed");
      expect(inputs.map((check) => check.id)).toEqual(INPUT_CHECKS);
      for (const check of inputs) {
        expect(check.status, `${check.id}: ${check.message}`).toBe("FAIL");
        expect(check.message).toMatch(/received 500 /);
      }
      // Everything else the gateway passed on to the correct sandbox.
      const others = results.checks.filter((check) => !INPUT_CHECKS.includes(check.id));
      expect(others.filter((check) => !["PASS", "WARN"].includes(check.status))).toEqual([]);
      expect(gateway.answered.tokens).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
  });

  it("every stage input answered 429: every check of the stage is ERROR (could not decide), never SKIP, exit 3", async ({
    sandbox,
    tmpDir,
  }) => {
    const gateway = await startSlowInputGateway(await sandbox(), {
      status: 429,
      headers: { "retry-after": "0.5" },
    });
    try {
      const { run, results, inputs } = await defaultProfile(gateway, tmpDir);
      expect(run.code, run.stdout).toBe(3);
      expect(results.verdict).not.toBe("passed");
      expect(inputs).toHaveLength(INPUT_CHECKS.length);
      for (const check of inputs) {
        expect(check.status, `${check.id}: ${check.message}`).toBe("ERROR");
        expect(check.message).toMatch(
          /^could not decide: every input sent was answered 429 \(too many requests\)/,
        );
      }
      expect(run.stdout).not.toMatch(/no input sent/);
    } finally {
      await gateway.close();
    }
  });
});
