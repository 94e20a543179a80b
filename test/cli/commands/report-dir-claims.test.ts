import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { verifyRotationCommand } from "../../../cli/commands/verify-rotation.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { runInProcess } from "../../support/run-in-process.ts";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "eah-report-claims-"));
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const K6_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
};

/** Each command as it runs against its embedded sandbox, quickly. */
const COMMANDS: ReadonlyArray<readonly [name: string, command: Command, args: readonly string[]]> = [
  ["contract", contractCommand, ["--only", "token.issued"]],
  ["verify-rotation", verifyRotationCommand, []],
  ["load", loadCommand, ["sustained", "--duration", "1s", "--rate", "2"]],
];

/** The user's own files, some named like the reports a run writes. */
const USER_FILES: Readonly<Record<string, string>> = {
  "notes.md": "my notes\n",
  "summary.md": "my own summary, not the harness's\n",
  "run.json": '{"mine":true}\n',
};

async function withUserFiles(name: string): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir);
  for (const [file, text] of Object.entries(USER_FILES)) await writeFile(path.join(dir, file), text);
  return dir;
}

async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(path.join(dir, name), "utf8");
  return out;
}

describe("a report directory holds one run: never shared, never clobbered", () => {
  it.each(COMMANDS)(
    "%s refuses a --report-dir that holds files, and leaves every one of them as it was (exit 2)",
    async (name, command, args) => {
      const dir = await withUserFiles(`user-files-${name}`);
      const run = await runInProcess(command, [...args, "--report-dir", dir], K6_ENV);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(dir);
      expect(run.stderr).toMatch(/exists and is not empty: give a new or empty directory/);
      expect(await contents(dir)).toEqual(USER_FILES);
    },
    60_000,
  );

  it.each(COMMANDS)(
    "%s refuses a --report-dir an earlier run wrote, and the earlier reports stay whole",
    async (name, command, args) => {
      const dir = path.join(work, `rerun-${name}`);
      const first = await runInProcess(command, [...args, "--report-dir", dir], K6_ENV);
      expect(first.code, first.stderr).toBe(0);
      const written = await contents(dir);
      const second = await runInProcess(command, [...args, "--report-dir", dir], K6_ENV);
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toMatch(/holds another run's reports|exists and is not empty/);
      expect(await contents(dir)).toEqual(written);
    },
    120_000,
  );

  it("two load runs started together on one --report-dir: one runs, the other is refused before k6 starts", async () => {
    const dir = path.join(work, "shared-load");
    const args = ["sustained", "--duration", "2s", "--rate", "2", "--report-dir", dir];
    const [a, b] = await Promise.all([
      runInProcess(loadCommand, args, K6_ENV),
      runInProcess(loadCommand, args, K6_ENV),
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
