import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/run-cli.ts";

/** Long enough for a busy machine to start the CLI; a command that spins on its report directory never ends. */
const LIMIT_MS = 60_000;

let work: string;
let aFile: string;
let target: Server;
let requests = 0;
let origin: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "eah-report-dir-"));
  aFile = path.join(work, "a-regular-file");
  await writeFile(aFile, "not a directory\n");
  // Any request at all counts: an unwritable report directory must stop a command before its first one.
  target = createServer((req, res) => {
    requests += 1;
    req.resume();
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  const address = target.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()));
  await rm(work, { recursive: true, force: true });
});

const unwritable: ReadonlyArray<readonly [label: string, dir: () => string, reason: RegExp]> = [
  ["under a regular file", () => path.join(aFile, "reports"), /not a directory \(ENOTDIR\)/],
  // procfs answers ENOENT for a new entry: Node's recursive mkdir retried that forever at full CPU.
  ["under /proc", () => "/proc/event-harness-reports/run", /refuses new entries there \(ENOENT\)/],
  ["with a name too long", () => path.join(work, "x".repeat(300)), /too long \(ENAMETOOLONG\)/],
];

const targetArgs = () => [
  "--auth-url",
  `${origin}/auth`,
  "--base-url",
  `${origin}/api`,
  "--client-id",
  "report-dir-test",
];
const secretEnv = { EVENT_API_CLIENT_SECRET: "report-dir-test-secret" };

const commands: ReadonlyArray<readonly [name: string, args: (dir: string) => string[]]> = [
  ["contract", (dir) => ["contract", ...targetArgs(), "--report-dir", dir]],
  ["verify-rotation", (dir) => ["verify-rotation", ...targetArgs(), "--report-dir", dir]],
  ["load", (dir) => ["load", "sustained", "--duration", "5s", ...targetArgs(), "--report-dir", dir]],
  [
    "load --instances",
    (dir) => ["load", "sustained", "--instances", "2", ...targetArgs(), "--report-dir", dir],
  ],
  ["load --k6-operator", (dir) => ["load", "sustained", ...targetArgs(), "--k6-operator", dir]],
  ["run", (dir) => ["run", "--parts", "contract", ...targetArgs(), "--report-dir", dir]],
  [
    "generate --out",
    (dir) => ["generate", "--count", "3", "--seed", "1", "--out", path.join(dir, "e.ndjson")],
  ],
];

describe("an unwritable report directory is a usage error (exit 2) before the first request", () => {
  for (const [command, args] of commands) {
    it.each(unwritable)(
      `${command}: %s`,
      async (_label, dir, reason) => {
        const before = requests;
        const run = await runCli(args(dir()), secretEnv, LIMIT_MS);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain(dir());
        expect(run.stderr).toMatch(reason);
        expect(run.stderr).not.toContain("internal error");
        expect(requests - before).toBe(0);
      },
      LIMIT_MS + 5_000,
    );
  }
});

describe("an unwritable sandbox journal is a usage error (exit 2) before the sandbox listens", () => {
  it.each(unwritable)(
    "sandbox --journal %s",
    async (_label, dir, reason) => {
      const journal = path.join(dir(), "events.ndjson");
      const run = await runCli(["sandbox", "--port", "0", "--journal", journal], {}, LIMIT_MS);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(dir());
      expect(run.stderr).toMatch(reason);
      expect(run.stdout).not.toContain("127.0.0.1");
    },
    LIMIT_MS + 5_000,
  );
});
