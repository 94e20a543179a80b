import { readFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { CommandIo } from "../../../cli/command.ts";
import type { PreparedContract } from "../../../cli/contract/prepare-contract.ts";
import { prepareContract, readContractOptions } from "../../../cli/contract/prepare-contract.ts";
import { recordContract } from "../../../cli/contract/record-contract.ts";
import type { CheckResult } from "../../../contracts/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

function ioWith(signal: AbortSignal = new AbortController().signal): CommandIo {
  return { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal };
}

const passed: CheckResult = {
  id: "token.issued",
  title: "A token is issued",
  area: "token",
  level: "MUST",
  rule: "RFC 6749 §4.4",
  status: "PASS",
  message: "200 with an access token",
  durationMs: 4,
  evidence: [],
};

async function prepared(reportDir: string): Promise<PreparedContract> {
  return prepareContract(
    await readContractOptions(
      { "report-dir": reportDir, seed: "99", "sandbox-fault": ["bearer-alg-none"] },
      ioWith(),
    ),
  );
}

async function resultsIn(dir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(dir, "results.json"), "utf8")) as Record<string, unknown>;
}

describe("recordContract", () => {
  it("records what ran: the tool, suite, seed, start, target and checks, and exits by the verdict", async ({
    tmpDir,
  }) => {
    const run = await prepared(tmpDir);
    try {
      const code = await recordContract(run, { target: run.configured, checks: [passed] }, ioWith());
      expect(code).toBe(0);
      const pkg = JSON.parse(await readFile(new URL("../../../package.json", import.meta.url), "utf8")) as {
        name: string;
        version: string;
      };
      const results = await resultsIn(tmpDir);
      expect(results).toMatchObject({
        tool: { name: pkg.name, version: pkg.version },
        suite: "contract (fast)",
        profile: "fast",
        seed: 99,
        startedAt: new Date(run.started).toISOString(),
        target: { baseUrl: run.configured.baseUrl, clientId: "sandbox-demo", embedded: true },
      });
      expect(results.durationMs).toEqual(expect.any(Number));
      expect(results).not.toHaveProperty("aborted");
      expect(results).not.toHaveProperty("couldNotTest");
      expect(JSON.stringify(results)).not.toContain(run.sandbox?.clients[0]?.clientSecret ?? "unset");
    } finally {
      await run.sandbox?.close();
    }
  });

  it("records an interrupted run with the signal's words, and a target that could not be tested, exit 3", async ({
    tmpDir,
  }) => {
    const first = path.join(tmpDir, "first");
    const run = await prepared(first);
    try {
      const controller = new AbortController();
      controller.abort(new Error("received SIGINT"));
      const code = await recordContract(
        run,
        { target: run.configured, checks: [passed] },
        ioWith(controller.signal),
      );
      expect(code).toBe(3);
      expect((await resultsIn(first)).aborted).toBe("interrupted (received SIGINT)");
    } finally {
      await run.sandbox?.close();
    }
    const second = path.join(tmpDir, "second");
    const other = await prepared(second);
    try {
      const skipped = { ...passed, status: "SKIP" as const, message: "not run" };
      const code = await recordContract(
        other,
        {
          target: other.configured,
          checks: [skipped],
          couldNotTest: "the token endpoint refused the client",
        },
        ioWith(),
      );
      expect(code).toBe(3);
      expect((await resultsIn(second)).couldNotTest).toBe("the token endpoint refused the client");
    } finally {
      await other.sandbox?.close();
    }
  });
});
