import path from "node:path";
import { afterEach } from "vitest";
import type { Command } from "../../cli/command.ts";
import { compareCommand } from "../../cli/commands/compare.ts";
import { contractCommand } from "../../cli/commands/contract.ts";
import { loadCommand } from "../../cli/commands/load.ts";
import { loadMergeCommand } from "../../cli/commands/load-merge.ts";
import { sandboxCommand } from "../../cli/commands/sandbox.ts";
import { tokenCommand } from "../../cli/commands/token.ts";
import { verifyRotationCommand } from "../../cli/commands/verify-rotation.ts";
import { describe, expect, it } from "../support/fixtures.ts";
import type { HostileFileKind } from "../support/hostile-files.ts";
import {
  HOSTILE_FILE_KINDS,
  HOSTILE_FILE_WORDS,
  hostileFile,
  releaseFifo,
} from "../support/hostile-files.ts";
import { runInProcess } from "../support/run-in-process.ts";

/** A FIFO read the old way blocks for ever: the test ends long before, and says so. */
const LIMIT_MS = 15_000;

let fifo: string | undefined;
afterEach(() => {
  if (fifo !== undefined) releaseFifo(fifo);
  fifo = undefined;
});

/** Nothing listens on port 9: a command that read its file and went on would fail for another reason. */
const TARGET = [
  "--auth-url",
  "http://127.0.0.1:9/auth",
  "--base-url",
  "http://127.0.0.1:9/api",
  "--client-id",
  "c",
];
const SECRET = { EVENT_API_CLIENT_SECRET: "input-files-secret-3b7a" };

interface Case {
  readonly option: string;
  readonly command: Command;
  readonly args: (file: string, reportDir: string) => string[];
  readonly env?: (file: string) => NodeJS.ProcessEnv;
  /** A directory means something else to this option (a report directory to look into). */
  readonly takesDirectories?: boolean;
}

const CASES: readonly Case[] = [
  {
    option: "--config",
    command: contractCommand,
    args: (file, dir) => ["--config", file, "--report-dir", dir],
  },
  {
    option: "--accepted (ledger)",
    command: contractCommand,
    args: (file, dir) => ["--accepted", file, "--report-dir", dir],
  },
  {
    option: "--credentials",
    command: loadCommand,
    args: (file, dir) => ["sustained", ...TARGET, "--credentials", file, "--report-dir", dir],
    env: () => SECRET,
  },
  {
    option: "--baseline",
    command: loadCommand,
    args: (file, dir) => ["sustained", "--duration", "2s", "--baseline", file, "--report-dir", dir],
    takesDirectories: true,
  },
  {
    option: "compare BASE",
    command: compareCommand,
    args: (file) => [file, file],
    takesDirectories: true,
  },
  {
    option: "--old-secret-file",
    command: verifyRotationCommand,
    args: (file, dir) => [
      ...TARGET,
      "--old-secret-file",
      file,
      "--expect-old",
      "refused",
      "--report-dir",
      dir,
    ],
    env: () => SECRET,
  },
  {
    option: "--old-token-file",
    command: verifyRotationCommand,
    args: (file, dir) => [
      ...TARGET,
      "--old-token-file",
      file,
      "--expect-old-tokens",
      "valid",
      "--report-dir",
      dir,
    ],
    env: () => SECRET,
  },
  {
    option: "NODE_EXTRA_CA_CERTS",
    command: tokenCommand,
    args: () => [...TARGET],
    env: (file) => ({ ...SECRET, NODE_EXTRA_CA_CERTS: file }),
  },
  {
    option: "--tls-cert",
    command: sandboxCommand,
    args: (file) => ["--port", "0", "--tls-cert", file, "--tls-key", file],
  },
  {
    option: "load-merge --plan",
    command: loadMergeCommand,
    args: (file, dir) => [dir, "--plan", file, "--report-dir", path.join(dir, "merged")],
  },
];

const cases = CASES.flatMap((c) =>
  HOSTILE_FILE_KINDS.filter((kind) => !(c.takesDirectories && kind === "directory")).map(
    (kind) => [c.option, kind, c] as const,
  ),
);

describe("every file the user names is read bounded: a regular file, a few MiB at most, else exit 2", () => {
  it.for(cases)(
    "%s given a %s",
    { timeout: LIMIT_MS },
    async ([, kind, c]: readonly [string, HostileFileKind, (typeof cases)[number][2]], { tmpDir: dir }) => {
      const file = await hostileFile(dir, kind);
      if (kind === "fifo") fifo = file;
      const reportDir = path.join(dir, "reports");
      // The command's modules load on its first run: a run on a missing file loads them before memory is measured.
      const absent = path.join(dir, "absent");
      await runInProcess(c.command, c.args(absent, path.join(dir, "warm-up")), c.env?.(absent) ?? {});
      const before = process.memoryUsage().rss;
      const run = await runInProcess(c.command, c.args(file, reportDir), c.env?.(file) ?? {});
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(file);
      expect(run.stderr).toMatch(HOSTILE_FILE_WORDS[kind]);
      expect(run.stderr).not.toContain("internal error");
      // Nothing of /dev/zero or the sparse file was read into memory.
      expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
    },
  );
});
