import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPIRY, METRIC, scenarioIterations } from "../../../load/index.ts";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { ensureK6 } from "../../../scripts/build/k6-binary.ts";
import { loadCommand } from "../../../scripts/commands/load.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** `load --instances N`: real k6 processes on execution segments against the sandbox, merged into one verdict. */
const EXPIRES_IN = 2;
const RUN_TIMEOUT_MS = 120_000;

interface Summary {
  readonly metrics: Record<string, { values: Record<string, number> }>;
  readonly harness: {
    verdict: { level: string };
    context: { instances?: Array<{ eventsAccepted: number }> };
  };
}

let workDir: string;
const secrets: string[] = [];
const outputs: string[] = [];
const sandboxes: RunningSandbox[] = [];

async function sandbox(faults: FaultName[] = []): Promise<RunningSandbox> {
  const secret = `instances-secret-${randomBytes(8).toString("hex")}`;
  secrets.push(secret);
  const started = await startSandbox({
    port: 0,
    expiresIn: EXPIRES_IN,
    faults,
    clients: [{ clientId: "instances-test", clientSecret: secret }],
  });
  sandboxes.push(started);
  return started;
}

async function load(sb: RunningSandbox, args: readonly string[], signal = new AbortController().signal) {
  const reportDir = await mkdtemp(path.join(workDir, "report-"));
  const client = sb.clients[0] as { clientId: string; clientSecret: string };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
    EVENT_API_CLIENT_SECRET: client.clientSecret,
  };
  const run = await runInProcess(
    loadCommand,
    [
      ...args,
      "--auth-url",
      sb.authUrl,
      "--base-url",
      sb.baseUrl,
      "--client-id",
      client.clientId,
      "--report-dir",
      reportDir,
    ],
    env,
    signal,
  );
  outputs.push(run.stdout, run.stderr);
  const summary = await readFile(path.join(reportDir, "summary.json"), "utf8")
    .then((text) => JSON.parse(text) as Summary)
    .catch(() => undefined);
  return { ...run, reportDir, summary };
}

/** This process's k6 children (Linux /proc): pid and command line. */
async function k6Children(): Promise<Array<{ pid: number; cmdline: string }>> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid !== process.pid) continue;
    const cmdline = (await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "")).replace(/\0/g, " ");
    if (/\bk6\b.* run /.test(cmdline)) found.push({ pid: Number(entry), cmdline });
  }
  return found;
}

/** Waits (bounded) until `count` k6 children run and have been resumed for a moment. */
async function waitForChildren(count: number): Promise<Array<{ pid: number; cmdline: string }>> {
  for (let i = 0; i < 200; i += 1) {
    const children = await k6Children();
    if (children.length >= count) return children;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${count} k6 instances never started`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const count = (summary: Summary | undefined, metric: string, stat = "count") =>
  summary?.metrics[metric]?.values[stat] ?? 0;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "load-instances-"));
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

afterAll(async () => {
  await Promise.all(sandboxes.map((sb) => sb.close()));
  await rm(workDir, { recursive: true, force: true });
  // No output ever held a client secret.
  for (const secret of secrets) for (const output of outputs) expect(output).not.toContain(secret);
});

describe("load --instances", () => {
  it(
    "sustained over 2 instances passes, and the merged totals are the sums of the instances' counts",
    async () => {
      const run = await load(await sandbox(), [
        "sustained",
        "--instances",
        "2",
        "--rate",
        "20",
        "--duration",
        "4s",
        "--vus",
        "6",
      ]);
      expect(run.stderr).not.toContain("thresholds failed");
      expect(run.code).toBe(0);
      const instances = run.summary?.harness.context.instances ?? [];
      expect(instances).toHaveLength(2);
      expect(count(run.summary, METRIC.eventsFailed, "fails")).toBe(
        instances.reduce((sum, t) => sum + t.eventsAccepted, 0),
      );
      // Both instances' own iterations (their warm-ups left out), merged.
      expect(count(run.summary, scenarioIterations("sustained"))).toBeGreaterThanOrEqual(75);
      expect(run.summary?.harness.verdict.level).toBe("held");
      const markdown = await readFile(path.join(run.reportDir, "summary.md"), "utf8");
      expect(markdown).toContain("## Instances: 2");
      expect(await readFile(path.join(run.reportDir, "junit.xml"), "utf8")).toContain('failures="0"');
      for (const i of [1, 2]) {
        expect(await readdir(path.join(run.reportDir, `instance-${i}`))).toEqual(
          expect.arrayContaining(["summary.json", "samples.csv.gz", "k6-options.json"]),
        );
      }
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "sustained over 2 instances fails against a fixed lifetime (exit 1, judged on the merged data)",
    async () => {
      const run = await load(await sandbox(["expiry-fixed"]), [
        "sustained",
        "--instances",
        "2",
        "--rate",
        "20",
        "--duration",
        "5s",
      ]);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.unexpected)).toBeGreaterThan(0);
      expect(run.stderr).toMatch(
        /thresholds failed on the merged data: token_expiries\{kind:unexpected\} count==0/,
      );
      expect(await readFile(path.join(run.reportDir, "junit.xml"), "utf8")).not.toContain('failures="0"');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "idle-gap over 3 instances holds on the correct sandbox: every instance sees its short and long gaps",
    async () => {
      const run = await load(await sandbox(), ["idle-gap", "--instances", "3"]);
      expect(run.code).toBe(0);
      // 3 VUs (grown from the default 2 so each instance has one) × 2 cycles.
      expect(count(run.summary, EXPIRY.idle)).toBe(6);
      expect(count(run.summary, EXPIRY.unexpected)).toBe(0);
      expect(run.summary?.harness.verdict.level).toBe("held");
      for (const totals of run.summary?.harness.context.instances ?? [])
        expect(totals.eventsAccepted).toBe(15);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "idle-gap over 3 instances fails when idle tokens never expire",
    async () => {
      const run = await load(await sandbox(["expiry-never"]), ["idle-gap", "--instances", "3"]);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.outlived)).toBe(6);
      expect(run.summary?.harness.verdict.level).not.toBe("held");
    },
    RUN_TIMEOUT_MS,
  );

  it("refuses fewer VUs than instances before k6 starts (exit 2)", async () => {
    const run = await load(await sandbox(), ["idle-gap", "--instances", "3", "--vus", "2"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("2 VUs cannot be split over 3 instances");
  });

  it(
    "an instance that dies mid-run stops the others: no verdict (exit 3), with its stderr",
    async () => {
      const sb = await sandbox();
      const running = load(sb, ["sustained", "--instances", "2", "--rate", "10", "--duration", "30s"]);
      const children = await waitForChildren(2);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const victim = children.find((c) => c.cmdline.includes("1/2:1"));
      process.kill(victim?.pid ?? 0, "SIGKILL");
      const run = await running;
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/k6 instance 2\/2 \(1\/2:1\) exited with/);
      expect(run.stderr).toContain("no verdict");
      for (const child of children) expect(alive(child.pid)).toBe(false);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "Ctrl+C stops every instance (exit 3)",
    async () => {
      const controller = new AbortController();
      const running = load(
        await sandbox(),
        ["sustained", "--instances", "2", "--rate", "10", "--duration", "30s"],
        controller.signal,
      );
      const children = await waitForChildren(2);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      controller.abort();
      const run = await running;
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("all 2 k6 instances were stopped");
      for (const child of children) expect(alive(child.pid)).toBe(false);
      // The client secret reached k6 through its environment only, never its command line.
      for (const child of children) for (const secret of secrets) expect(child.cmdline).not.toContain(secret);
    },
    RUN_TIMEOUT_MS,
  );
});
