import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { describe, expect, test } from "../../support/fixtures.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

/** Long enough for a busy machine; a command that spins on its report directory never ends. */
const LIMIT_MS = 60_000;

/**
 * `requests`: a target that counts every request it gets (an unwritable report directory must stop a command
 * before its first one), started once for the file; `unwritable`: the three kinds of directory nothing can be
 * written under, in this test's tmpDir.
 */
const it = test
  .extend(
    "requests",
    { scope: "file" },
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
    async ({}, { onCleanup }) => {
      let count = 0;
      const target = createServer((req, res) => {
        count += 1;
        req.resume();
        res.writeHead(503).end();
      });
      await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
      onCleanup(() => new Promise<void>((resolve) => target.close(() => resolve())));
      const address = target.address();
      const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      return { origin, count: () => count };
    },
  )
  .extend("unwritable", async ({ tmpDir }) => {
    const aFile = path.join(tmpDir, "a-regular-file");
    await writeFile(aFile, "not a directory\n");
    return {
      "under a regular file": path.join(aFile, "reports"),
      // procfs answers ENOENT for a new entry: Node's recursive mkdir retried that forever at full CPU.
      "under /proc": "/proc/event-harness-reports/run",
      "with a name too long": path.join(tmpDir, "x".repeat(300)),
    } as Record<string, string>;
  });

const REASONS: ReadonlyArray<readonly [label: string, reason: RegExp]> = [
  ["under a regular file", /not a directory \(ENOTDIR\)/],
  ["under /proc", /refuses new entries there \(ENOENT\)/],
  ["with a name too long", /too long \(ENAMETOOLONG\)/],
];

const targetArgs = (origin: string) => [
  "--auth-url",
  `${origin}/auth`,
  "--base-url",
  `${origin}/api`,
  "--client-id",
  "report-dir-test",
];
const secretEnv = { EVENT_API_CLIENT_SECRET: "report-dir-test-secret" };

const commands: ReadonlyArray<readonly [name: string, args: (dir: string, origin: string) => string[]]> = [
  ["contract", (dir, origin) => ["contract", ...targetArgs(origin), "--report-dir", dir]],
  ["verify-rotation", (dir, origin) => ["verify-rotation", ...targetArgs(origin), "--report-dir", dir]],
  [
    "load",
    (dir, origin) => ["load", "sustained", "--duration", "5s", ...targetArgs(origin), "--report-dir", dir],
  ],
  [
    "load --instances",
    (dir, origin) => ["load", "sustained", "--instances", "2", ...targetArgs(origin), "--report-dir", dir],
  ],
  ["load --k6-operator", (dir, origin) => ["load", "sustained", ...targetArgs(origin), "--k6-operator", dir]],
  ["run", (dir, origin) => ["run", "--parts", "contract", ...targetArgs(origin), "--report-dir", dir]],
  [
    "generate --out",
    (dir) => ["generate", "--count", "3", "--seed", "1", "--out", path.join(dir, "e.ndjson")],
  ],
];

describe("an unwritable report directory is a usage error (exit 2) before the first request", () => {
  for (const [command, args] of commands) {
    it.for(REASONS)(
      `${command}: %s`,
      { timeout: LIMIT_MS },
      async ([label, reason], { requests, unwritable }) => {
        const dir = unwritable[label] as string;
        const before = requests.count();
        const run = await runCliInProcess(args(dir, requests.origin), secretEnv);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain(dir);
        expect(run.stderr).toMatch(reason);
        expect(run.stderr).not.toContain("internal error");
        expect(requests.count() - before).toBe(0);
      },
    );
  }
});

describe("an unwritable sandbox journal is a usage error (exit 2) before the sandbox listens", () => {
  it.for(REASONS)("sandbox --journal %s", { timeout: LIMIT_MS }, async ([label, reason], { unwritable }) => {
    const dir = unwritable[label] as string;
    const journal = path.join(dir, "events.ndjson");
    const run = await runCliInProcess(["sandbox", "--port", "0", "--journal", journal]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(dir);
    expect(run.stderr).toMatch(reason);
    expect(run.stdout).not.toContain("127.0.0.1");
  });
});
