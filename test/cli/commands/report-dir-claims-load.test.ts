import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess, toolEnv } from "../../support/run-in-process.ts";

// A report directory holds one run, for the load command: these run k6 (the other commands are in
// report-dir-claims.test.ts).

beforeAll(async () => {
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

const LOAD = ["sustained", "--duration", "1s", "--rate", "2"];

async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(path.join(dir, name), "utf8");
  return out;
}

describe("a report directory holds one run: never shared, never clobbered", () => {
  it.for([["load", LOAD]] as const)(
    "%s refuses a --report-dir an earlier run wrote, and the earlier reports stay whole",
    { timeout: 120_000 },
    async ([name, args], { tmpDir }) => {
      const dir = path.join(tmpDir, `rerun-${name}`);
      const first = await runInProcess(loadCommand, [...args, "--report-dir", dir], toolEnv());
      expect(first.code, first.stderr).toBe(0);
      const written = await contents(dir);
      const second = await runInProcess(loadCommand, [...args, "--report-dir", dir], toolEnv());
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toMatch(/holds another run's reports|exists and is not empty/);
      expect(await contents(dir)).toEqual(written);
    },
  );

  it("two load runs started together on one --report-dir: one runs, the other is refused before k6 starts", async ({
    tmpDir,
  }) => {
    const dir = path.join(tmpDir, "shared-load");
    const args = ["sustained", "--duration", "2s", "--rate", "2", "--report-dir", dir];
    const [a, b] = await Promise.all([
      runInProcess(loadCommand, args, toolEnv()),
      runInProcess(loadCommand, args, toolEnv()),
    ]);
    const codes = [a.code, b.code].sort();
    expect(codes, `${a.stderr}\n---\n${b.stderr}`).toEqual([0, 2]);
    const refused = a.code === 2 ? a : b;
    expect(refused.stderr).toMatch(/holds another run's reports|exists and is not empty/);
    expect(refused.stderr).not.toContain("internal error");
    // One run's reports, whole: its run.json names the run that wrote its summary.
    const record = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as { runId: string };
    const summary = await readFile(path.join(dir, "summary.md"), "utf8");
    expect(summary).toContain(record.runId);
  }, 120_000);
});
