import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freeLoopbackPort } from "../../../k6-tooling/run/k6-control.ts";
import { METRIC, TOKEN_FAILURES } from "../../../load/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import {
  alive,
  K6_EXTERNAL_ABORT,
  k6Children,
  untilK6Children,
  untilK6Running,
} from "../../support/k6-processes.ts";
import {
  beforeAllK6,
  count,
  expectNoSecretInLoads,
  loadTest as it,
  LOAD_RUN_TIMEOUT_MS,
  loadSandbox,
  targetOf,
} from "../../support/load-runs.ts";

/** Real k6 runs stopped or broken from outside while they run: a rotated secret, Ctrl+C, a CI runner's SIGTERM. */
const CLI = fileURLToPath(new URL("../../../bin/event-harness.js", import.meta.url));

beforeAllK6();

describe("load: real k6 runs against the sandbox", () => {
  it(
    "token-storm fails when token requests fail mid-run (the secret rotated without overlap): failed token requests",
    async ({ loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads));
      const { clientId } = sb.clients[0] as { clientId: string };
      const pending = loads.run(
        ["token-storm", "--vus", "5", "--duration", "4s", ...targetOf(sb).args],
        targetOf(sb).env,
      );
      // After the preflight (k6 runs): the VUs' token requests, not the harness's, are refused from now on.
      await untilK6Children(1);
      await sb.rotateSecret(clientId);
      const run = await pending;
      expect(run.code).toBe(1);
      const failures = count(run.summary, TOKEN_FAILURES);
      expect(failures).toBeGreaterThan(0);
      expect(run.summary.metrics[TOKEN_FAILURES]?.thresholds?.["count==0"]?.ok).toBe(false);
      expect(run.stderr).toMatch(
        /thresholds failed: .*token_requests\{outcome:failed\} count==0 \(count=\d+\)/,
      );
      // Each iteration's own token: none replaced a held one, so no refresh, failed or not.
      expect(count(run.summary, `${METRIC.tokenRequests}{reason:per-iteration}`)).toBe(
        count(run.summary, METRIC.tokenRequests),
      );
      expect(await readFile(path.join(run.reportDir, "summary.md"), "utf8")).toContain(
        `- Refreshes (a held token replaced): 0\n- Failed token requests: ${failures}\n`,
      );
    },
    LOAD_RUN_TIMEOUT_MS,
  );

  it(
    "Ctrl+C stops k6 (exit 105, recorded as aborted in run.json): exit 3, no k6 left running, no secret on its command line",
    async ({ loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads));
      const controller = new AbortController();
      // k6's REST API on a port of the test's own (K6_* settings reach k6), to see k6 run instead of guessing when.
      const address = `127.0.0.1:${await freeLoopbackPort()}`;
      const pending = loads.run(
        ["sustained", "--duration", "60s", ...targetOf(sb).args],
        { ...targetOf(sb).env, K6_ADDRESS: address },
        controller.signal,
      );
      await untilK6Running(address);
      const [child, ...others] = await k6Children();
      expect(others).toEqual([]);
      if (child === undefined) throw new Error("k6 runs, but is not a child of this process");
      for (const secret of loads.secrets) expect(child.cmdline).not.toContain(secret);
      controller.abort();
      const run = await pending;
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("aborted; k6 was stopped");
      const runJson = JSON.parse(await readFile(path.join(run.reportDir, "run.json"), "utf8")) as unknown;
      expect(runJson).toMatchObject({ aborted: true, timedOut: false, k6ExitCode: K6_EXTERNAL_ABORT });
      expect(alive(child.pid)).toBe(false);
      expect(await k6Children()).toEqual([]);
      await expectAbortedEverywhere(run.stdout, run.reportDir);
    },
    LOAD_RUN_TIMEOUT_MS,
  );

  // A real SIGTERM to a real process: the CLI's own signal handling is under test.
  it(
    "SIGTERM (a CI runner cancelling) aborts the real CLI the same way: ABORTED everywhere, exit 3",
    async ({ loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads));
      const reportDir = await loads.reportDir();
      const address = `127.0.0.1:${await freeLoopbackPort()}`;
      const child = spawn(
        process.execPath,
        [CLI, "load", "sustained", "--duration", "60s", ...targetOf(sb).args, "--report-dir", reportDir],
        {
          env: { ...process.env, ...targetOf(sb).env, K6_ADDRESS: address, NO_COLOR: "1" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        stdout += data;
      });
      child.stderr.setEncoding("utf8").on("data", (data: string) => {
        stderr += data;
      });
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      await untilK6Running(address);
      child.kill("SIGTERM");
      const code = await closed;
      loads.outputs.push(stdout, stderr);
      expect(code, stderr).toBe(3);
      expect(stderr).toContain("aborted; k6 was stopped");
      await expectAbortedEverywhere(stdout, reportDir, "SIGTERM");
    },
    LOAD_RUN_TIMEOUT_MS,
  );
});

/** What an interrupted load run must leave: ABORTED in every output, never PASSED, and only files that exist listed. */
async function expectAbortedEverywhere(stdout: string, reportDir: string, signal?: string): Promise<void> {
  expect(stdout).not.toContain("PASSED");
  expect(stdout).toMatch(/^ {2}ABORTED: interrupted/m);
  const markdown = await readFile(path.join(reportDir, "summary.md"), "utf8");
  expect(markdown).toMatch(/\*\*Result: ABORTED: interrupted/);
  expect(markdown).not.toContain("PASSED");
  const junit = await readFile(path.join(reportDir, "junit.xml"), "utf8");
  expect(junit).toMatch(/<error message="ABORTED: interrupted[^"]*" type="aborted"/);
  const summaryJson = JSON.parse(await readFile(path.join(reportDir, "summary.json"), "utf8")) as {
    harness: { result: { outcome: string; reason: string } };
  };
  expect(summaryJson.harness.result.outcome).toBe("aborted");
  const runJson = JSON.parse(await readFile(path.join(reportDir, "run.json"), "utf8")) as {
    result: { outcome: string; reason: string };
  };
  expect(runJson.result.outcome).toBe("aborted");
  if (signal) expect(runJson.result.reason).toContain(signal);
  const listed = /^Reports: (.*)$/m.exec(stdout)?.[1];
  expect(listed, stdout).toBeDefined();
  const names = (listed ?? "").split(", ").map((name) => path.basename(name));
  const present = await readdir(reportDir);
  for (const name of names) expect(present, `listed ${name}`).toContain(name);
}

describe("load: secrets", () => {
  it("appear in no output and no report file (dashboard data included)", async ({ loads }) => {
    await expectNoSecretInLoads(loads);
  });
});
