import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll } from "vitest";
import { compareCommand } from "../../../cli/commands/compare.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { LOAD_RECORD_FORMAT } from "../../../reporting/compare/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** Short real runs against the embedded sandbox: a few seconds of load each, enough units for a verdict. */
const RUN = ["sustained", "--rate", "30", "--duration", "6s"];
const RUN_TIMEOUT_MS = 90_000;

const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
};

async function load(workDir: string, args: readonly string[]) {
  const reportDir = await mkdtemp(path.join(workDir, "report-"));
  const run = await runInProcess(loadCommand, [...args, "--report-dir", reportDir], env);
  return { ...run, reportDir };
}

beforeAll(async () => {
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

/** The runs of this file build on each other: one directory for all of them, and the baseline one saves there. */
const it = base.extend(
  "baselineFile",
  { scope: "file" },
  // In a folder of its own that does not exist yet, as a consumer repository keeps baselines/sustained.json.
  async ({ fileDir }) => path.join(fileDir, "baselines", "sustained-baseline.json"),
);

describe("load --save-baseline / --baseline and compare", () => {
  let baselineDir: string;
  let sameDir: string;
  let slowDir: string;

  it(
    "keeps baseline.json in every report dir and saves a passed run as a baseline",
    async ({ fileDir: workDir, baselineFile }) => {
      const run = await load(workDir, [...RUN, "--save-baseline", baselineFile]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`baseline saved to ${baselineFile}`);
      const saved = JSON.parse(await readFile(baselineFile, "utf8"));
      expect(saved.format).toBe(LOAD_RECORD_FORMAT);
      expect(saved.settings).toMatchObject({ scenario: "sustained", rate: 30, durationSeconds: 6 });
      expect(saved.versions.k6).toMatch(/^v2\./);
      expect(saved.units.length).toBeGreaterThan(10);
      expect(await readFile(path.join(run.reportDir, "baseline.json"), "utf8")).toBe(
        await readFile(baselineFile, "utf8"),
      );
      baselineDir = run.reportDir;
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "finds the same sandbox again UNCHANGED or INCONCLUSIVE, never REGRESSED (exit 0)",
    async ({ fileDir: workDir, baselineFile }) => {
      const run = await load(workDir, [...RUN, "--baseline", baselineFile]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /Baseline comparison against .*sustained-baseline\.json: baseline (UNCHANGED|INCONCLUSIVE)/,
      );
      expect(run.stdout).not.toContain("REGRESSED");
      sameDir = run.reportDir;
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "finds the sandbox with 30 ms added REGRESSED: exit 1, in the console, summary.md and junit.xml",
    async ({ fileDir: workDir, baselineFile }) => {
      const run = await load(workDir, [
        ...RUN,
        "--baseline",
        baselineFile,
        "--sandbox-latency",
        "30",
        "--allow-latency-change",
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/Baseline comparison against .*: baseline REGRESSED/);
      // 30 ms more on every answer: at least that much on the median (more on a busy machine).
      expect(run.stdout).toMatch(
        /REGRESSED\s+events latency p50 per 500 ms: [\d.]+ ms → (?:[3-9]\d|\d{3,})\.\d ms/,
      );
      expect(run.stderr).toMatch(/REGRESSED against the baseline: events\.p50/);
      const markdown = await readFile(path.join(run.reportDir, "summary.md"), "utf8");
      // What failed leads: crossed thresholds and the regression, then what held.
      expect(markdown).toMatch(
        /\*\*Result: FAILED: (\d thresholds? crossed: [^;]*; )?baseline REGRESSED \(events p50 \+[\d.]+ ms.*\)(; thresholds held)?\*\*/,
      );
      expect(markdown).toContain("| **REGRESSED** | events latency p50 per 500 ms | whole run |");
      const junit = await readFile(path.join(run.reportDir, "junit.xml"), "utf8");
      expect(junit).toMatch(
        /<testcase name="events\.p50" classname="load\.sustained\.baseline"[^>]*><failure message="REGRESSED: /,
      );
      slowDir = run.reportDir;
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "refuses another rate before any load, naming the setting (exit 2)",
    async ({ fileDir: workDir, baselineFile }) => {
      const run = await load(workDir, [
        "sustained",
        "--rate",
        "40",
        "--duration",
        "6s",
        "--baseline",
        baselineFile,
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("cannot compare runs with different load settings (rate 30 → 40)");
      expect(run.stdout).not.toContain("THRESHOLDS");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "compares merged samples of --instances 2 with the same baseline",
    async ({ fileDir: workDir, baselineFile }) => {
      const run = await load(workDir, [...RUN, "--instances", "2", "--baseline", baselineFile]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Baseline comparison against .*: baseline (UNCHANGED|INCONCLUSIVE)/);
      const record = JSON.parse(await readFile(path.join(run.reportDir, "baseline.json"), "utf8"));
      expect(record.instances).toBe(2);
      const accepted = record.units.reduce((sum: number, u: { accepted: number }) => sum + u.accepted, 0);
      expect(accepted).toBeGreaterThan(150);
    },
    RUN_TIMEOUT_MS,
  );

  it("compare judges report dirs after the fact: exit 1 on the slow run, 0 on the same one", async ({
    baselineFile,
  }) => {
    const slow = await runInProcess(compareCommand, [baselineDir, slowDir, "--allow-latency-change"], env);
    expect(slow.code, slow.stderr).toBe(1);
    expect(slow.stdout).toMatch(/: baseline REGRESSED /);
    const same = await runInProcess(compareCommand, [baselineFile, sameDir], env);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).not.toContain("REGRESSED");
  });
});

describe("compare of contract runs", () => {
  it("lists per check what newly fails and what got fixed, and fails on a new failure", async ({
    tmpDir,
  }) => {
    const dir = tmpDir;
    const results = (checks: Record<string, string>) =>
      JSON.stringify({
        verdict: "x",
        checks: Object.entries(checks).map(([id, status]) => ({ id, status })),
      });
    await writeFile(
      path.join(dir, "before.json"),
      results({ "a.one": "PASS", "b.two": "FAIL", "c.three": "PASS" }),
    );
    await writeFile(
      path.join(dir, "after.json"),
      results({ "a.one": "FAIL", "b.two": "PASS", "c.three": "ERROR" }),
    );
    const run = await runInProcess(
      compareCommand,
      [path.join(dir, "before.json"), path.join(dir, "after.json")],
      {},
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("newly failing: 1\n      a.one: PASS → FAIL");
    expect(run.stdout).toContain("fixed: 1\n      b.two: FAIL → PASS");
    expect(run.stdout).toContain("other changes: 1\n      c.three: PASS → ERROR");
    const back = await runInProcess(
      compareCommand,
      [path.join(dir, "after.json"), path.join(dir, "before.json")],
      {},
    );
    expect(back.code).toBe(1);
    const kinds = await runInProcess(
      compareCommand,
      [path.join(dir, "before.json"), path.join(dir, "nothing.json")],
      {},
    );
    expect(kinds.code).toBe(2);
  });
});
