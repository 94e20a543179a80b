import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll } from "vitest";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { EXPIRY, METRIC, scenarioIterations } from "../../../load/index.ts";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import {
  alive,
  K6_EXTERNAL_ABORT,
  k6Address,
  k6Children,
  untilK6Children,
  untilK6Running,
} from "../../support/k6-processes.ts";
import {
  count as countOf,
  loadTest as it,
  type LoadRuns,
  type LoadSummary,
  targetOf,
} from "../../support/load-runs.ts";

/** `load --instances N`: real k6 processes on execution segments against the sandbox, merged into one verdict. */
const EXPIRES_IN = 2;
const RUN_TIMEOUT_MS = 120_000;

let k6Path: string;

type Start = (options: {
  expiresIn: number;
  faults: FaultName[];
  clients: { clientId: string; clientSecret: string }[];
}) => Promise<RunningSandbox>;

/** A sandbox with a short lifetime and one client whose secret the file's search looks for. */
function sandboxOf(start: Start, loads: LoadRuns, faults: FaultName[] = []): Promise<RunningSandbox> {
  return start({ expiresIn: EXPIRES_IN, faults, clients: [loads.client("instances")] });
}

/** `event-harness load …` against `sb`, in-process, with its own report directory. */
function load(
  loads: LoadRuns,
  sb: RunningSandbox,
  args: readonly string[],
  { signal = new AbortController().signal, env = {} }: { signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {},
) {
  const target = targetOf(sb);
  return loads.run([...args, ...target.args], { ...target.env, ...env }, signal);
}

interface RunJson {
  readonly instances: Array<{ segment: string; k6ExitCode: number | null }>;
  readonly aborted: boolean;
  readonly timedOut: boolean;
  readonly failure?: string;
}

async function runJson(reportDir: string): Promise<RunJson> {
  return JSON.parse(await readFile(path.join(reportDir, "run.json"), "utf8")) as RunJson;
}

/** A K6_BIN that runs the real k6, except that the instance on `segment` dies (SIGKILL) before k6 starts. */
async function k6DyingOnSegment(dir: string, segment: string): Promise<string> {
  const file = path.join(dir, "k6-dying-on-segment");
  await writeFile(
    file,
    [
      "#!/bin/sh",
      `case " $* " in *" --execution-segment ${segment} "*) kill -s KILL $$ ;; esac`,
      `exec '${k6Path}' "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return file;
}

const count = (summary: LoadSummary, metric: string, stat = "count") =>
  stat === "count" ? countOf(summary, metric) : (summary.metrics[metric]?.values[stat] ?? 0);

beforeAll(async () => {
  k6Path = (await ensureK6({ env: process.env, stderr: process.stderr })).path;
}, 600_000);

it.afterAll(({ loads }) => {
  // No output ever held a client secret.
  for (const secret of loads.secrets)
    for (const output of loads.outputs) expect(output).not.toContain(secret);
});

describe("load --instances", () => {
  it(
    "sustained over 2 instances passes, and the merged totals are the sums of the instances' counts",
    async ({ loads, sandbox }) => {
      const run = await load(loads, await sandboxOf(sandbox, loads), [
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
      const instances = run.summary.harness.context?.instances ?? [];
      expect(instances).toHaveLength(2);
      expect(count(run.summary, METRIC.eventsFailed, "fails")).toBe(
        instances.reduce((sum, t) => sum + t.eventsAccepted, 0),
      );
      // Both instances' own iterations (their warm-ups left out), merged.
      expect(count(run.summary, scenarioIterations("sustained"))).toBeGreaterThanOrEqual(75);
      expect(run.summary.harness.verdict.level).toBe("held");
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
    async ({ loads, sandbox }) => {
      const run = await load(loads, await sandboxOf(sandbox, loads, ["expiry-fixed"]), [
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
    async ({ loads, sandbox }) => {
      const run = await load(loads, await sandboxOf(sandbox, loads), ["idle-gap", "--instances", "3"]);
      expect(run.code).toBe(0);
      // 3 VUs (grown from the default 2 so each instance has one) × 2 cycles.
      expect(count(run.summary, EXPIRY.idle)).toBe(6);
      expect(count(run.summary, EXPIRY.extended)).toBe(6);
      expect(count(run.summary, EXPIRY.survived)).toBe(6);
      expect(count(run.summary, EXPIRY.unexpected)).toBe(0);
      expect(run.summary.harness.verdict.level).toBe("held");
      // One VU each: (1 + 2 cycles × (mid + 3 short + long)) bursts of 3 events.
      for (const totals of run.summary.harness.context?.instances ?? [])
        expect(totals.eventsAccepted).toBe(33);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "idle-gap over 3 instances fails when idle tokens never expire",
    async ({ loads, sandbox }) => {
      const run = await load(loads, await sandboxOf(sandbox, loads, ["expiry-never"]), [
        "idle-gap",
        "--instances",
        "3",
      ]);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.outlived)).toBe(6);
      expect(run.summary.harness.verdict.level).not.toBe("held");
    },
    RUN_TIMEOUT_MS,
  );

  it("refuses fewer VUs than instances before k6 starts (exit 2)", async ({ loads, sandbox }) => {
    const run = await load(loads, await sandboxOf(sandbox, loads), [
      "idle-gap",
      "--instances",
      "3",
      "--vus",
      "2",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("2 VUs cannot be split over 3 instances");
  });

  it(
    "an instance that dies mid-run stops the others: no verdict (exit 3), with its stderr",
    async ({ loads, sandbox }) => {
      const sb = await sandboxOf(sandbox, loads);
      const running = load(loads, sb, ["sustained", "--instances", "2", "--rate", "10", "--duration", "30s"]);
      const children = await untilK6Children(2);
      // Mid-run for real: both instances were resumed and run their scenarios.
      await Promise.all(children.map((child) => untilK6Running(k6Address(child))));
      const victim = children.find((c) => c.cmdline.includes("--execution-segment 1/2:1 "));
      if (victim === undefined) throw new Error("no k6 instance runs segment 1/2:1");
      process.kill(victim.pid, "SIGKILL");
      const run = await running;
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/k6 instance 2\/2 \(1\/2:1\) exited with a signal/);
      expect(run.stderr).toContain("no verdict");
      // The survivor was stopped by the harness's SIGINT (105); the killed one has no exit code.
      const record = await runJson(run.reportDir);
      expect(record.instances.map((i) => i.k6ExitCode)).toEqual([K6_EXTERNAL_ABORT, null]);
      expect(record).toMatchObject({
        aborted: false,
        failure: expect.stringContaining("exited with a signal"),
      });
      for (const child of children) expect(alive(child.pid)).toBe(false);
      expect(await k6Children()).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "an instance that never starts stops the others before the run: no verdict (exit 3)",
    async ({ loads, sandbox, tmpDir }) => {
      const sb = await sandboxOf(sandbox, loads);
      const run = await load(
        loads,
        sb,
        ["sustained", "--instances", "2", "--rate", "10", "--duration", "30s"],
        {
          env: { K6_BIN: await k6DyingOnSegment(tmpDir, "1/2:1") },
        },
      );
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("k6 instance 2/2 did not start (it exited");
      expect(run.stderr).toContain("no verdict");
      // Instance 1 got as far as waiting paused and was stopped there (105); instance 2 died before k6 ran.
      const record = await runJson(run.reportDir);
      expect(record.instances.map((i) => i.k6ExitCode)).toEqual([K6_EXTERNAL_ABORT, null]);
      expect(record).toMatchObject({ aborted: false, failure: expect.stringContaining("did not start") });
      expect(await k6Children()).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "Ctrl+C stops every instance (each k6 exits 105, run.json says aborted): exit 3",
    async ({ loads, sandbox }) => {
      const controller = new AbortController();
      const running = load(
        loads,
        await sandboxOf(sandbox, loads),
        ["sustained", "--instances", "2", "--rate", "10", "--duration", "30s"],
        { signal: controller.signal },
      );
      const children = await untilK6Children(2);
      await Promise.all(children.map((child) => untilK6Running(k6Address(child))));
      controller.abort();
      const run = await running;
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("all 2 k6 instances were stopped");
      const record = await runJson(run.reportDir);
      expect(record.instances.map((i) => i.k6ExitCode)).toEqual([K6_EXTERNAL_ABORT, K6_EXTERNAL_ABORT]);
      expect(record).toMatchObject({ aborted: true, timedOut: false, result: { outcome: "aborted" } });
      // Every output the run left says ABORTED, and the last line names only files that exist.
      expect(run.stdout).not.toContain("PASSED");
      expect(run.stdout).toMatch(/^ {2}ABORTED: interrupted/m);
      const line = /^Reports: ([^(\n]*)/m.exec(run.stdout)?.[1]?.trim() ?? "";
      const listed = line.split(", ").map((name) => path.basename(name));
      expect(listed).toContain("run.json");
      const present = await readdir(run.reportDir);
      for (const name of listed) expect(present, `listed ${name}`).toContain(name);
      if (present.includes("summary.md")) {
        expect(await readFile(path.join(run.reportDir, "summary.md"), "utf8")).toContain("**Result: ABORTED");
        expect(await readFile(path.join(run.reportDir, "junit.xml"), "utf8")).toContain('type="aborted"');
      }
      for (const child of children) expect(alive(child.pid)).toBe(false);
      expect(await k6Children()).toEqual([]);
      // The client secret reached k6 through its environment only, never its command line.
      for (const child of children)
        for (const secret of loads.secrets) expect(child.cmdline).not.toContain(secret);
    },
    RUN_TIMEOUT_MS,
  );
});
