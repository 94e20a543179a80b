import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { verifyRotationCommand } from "../../../cli/commands/verify-rotation.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess, toolEnv } from "../../support/run-in-process.ts";

// The commands whose runs take a second; a load run's k6 part is in report-dir-claims-load.test.ts.

/** Each command as it runs against its embedded sandbox, quickly. */
const COMMANDS: ReadonlyArray<readonly [name: string, command: Command, args: readonly string[]]> = [
  ["contract", contractCommand, ["--only", "token.issued"]],
  ["verify-rotation", verifyRotationCommand, []],
  ["load", loadCommand, ["sustained", "--duration", "1s", "--rate", "2"]],
];
/** The commands that finish without k6. */
const WITHOUT_K6 = COMMANDS.filter(([name]) => name !== "load");

/** The user's own files, some named like the reports a run writes. */
const USER_FILES: Readonly<Record<string, string>> = {
  "notes.md": "my notes\n",
  "summary.md": "my own summary, not the harness's\n",
  "run.json": '{"mine":true}\n',
};

async function withUserFiles(work: string, name: string): Promise<string> {
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
  it.for(COMMANDS)(
    "%s refuses a --report-dir that holds files, and leaves every one of them as it was (exit 2)",
    { timeout: 60_000 },
    async ([name, command, args], { tmpDir }) => {
      const dir = await withUserFiles(tmpDir, `user-files-${name}`);
      const run = await runInProcess(command, [...args, "--report-dir", dir], toolEnv());
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(dir);
      expect(run.stderr).toMatch(/exists and is not empty: give a new or empty directory/);
      expect(await contents(dir)).toEqual(USER_FILES);
    },
  );

  it.for(WITHOUT_K6)(
    "%s refuses a --report-dir an earlier run wrote, and the earlier reports stay whole",
    { timeout: 120_000 },
    async ([name, command, args], { tmpDir }) => {
      const dir = path.join(tmpDir, `rerun-${name}`);
      const first = await runInProcess(command, [...args, "--report-dir", dir], toolEnv());
      expect(first.code, first.stderr).toBe(0);
      const written = await contents(dir);
      const second = await runInProcess(command, [...args, "--report-dir", dir], toolEnv());
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toMatch(/holds another run's reports|exists and is not empty/);
      expect(await contents(dir)).toEqual(written);
    },
  );
});
