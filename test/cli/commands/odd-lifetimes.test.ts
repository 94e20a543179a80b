import { readdir } from "node:fs/promises";
import path from "node:path";
import { beforeAll } from "vitest";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { tokenCommand } from "../../../cli/commands/token.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { type FixedLifetimeServer, startFixedLifetimeServer } from "../../support/fixed-lifetime-server.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { runInProcess, toolEnv } from "../../support/run-in-process.ts";

const CLIENT = { clientId: "odd-lifetime", clientSecret: "odd-lifetime-secret-7c1d9e" };

/** What each target announces as expires_in, and how the harness must quote it back. */
const ODD_LIFETIMES: ReadonlyArray<readonly [announced: unknown, said: string]> = [
  [0.5, "expires_in is 0.5, not a positive whole number of seconds"],
  ["300", 'expires_in is a string ("300"), not a number of seconds'],
  [0, "expires_in is 0, not a positive whole number of seconds"],
  [null, "expires_in is null, not a number of seconds"],
  // Text a terminal would obey: quoted inert, never raw.
  [
    "\u001b[2J300\r\n::warning::x",
    'expires_in is a string ("\\x1b[2J300\\r\\n::warning::x"), not a number of seconds',
  ],
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding these characters raw in the output is the point.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/;

beforeAll(async () => {
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

/** `target(announced)`: a server announcing that expires_in (its tokens last 300 s), closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = test.extend("target", async ({}, { onCleanup }) => {
  const servers: FixedLifetimeServer[] = [];
  onCleanup(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  return async (announced: unknown): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> => {
    const server = await startFixedLifetimeServer({
      ...CLIENT,
      expiresIn: 300,
      announcedExpiresIn: announced,
    });
    servers.push(server);
    return {
      args: ["--auth-url", server.authUrl, "--base-url", server.baseUrl, "--client-id", CLIENT.clientId],
      env: { ...toolEnv(), EVENT_API_CLIENT_SECRET: CLIENT.clientSecret },
    };
  };
});

describe("a target's odd expires_in is the target's fault, judged by one rule everywhere", () => {
  it.for(ODD_LIFETIMES)(
    "token: exit 3 for expires_in %j, printing no token",
    async ([announced, said], { target }) => {
      const { args, env } = await target(announced);
      const run = await runInProcess(tokenCommand, args, env);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(said);
      expect(run.stderr).not.toMatch(CONTROLS);
      expect(run.stderr.split("\n").some((line) => line.startsWith("::"))).toBe(false);
    },
  );

  it.for(ODD_LIFETIMES)(
    "load: exit 3 for expires_in %j before k6 starts, naming the target's answer and no variable of ours",
    { timeout: 60_000 },
    async ([announced, said], { target, tmpDir }) => {
      const { args, env } = await target(announced);
      const reportDir = path.join(tmpDir, "load");
      const run = await runInProcess(
        loadCommand,
        ["sustained", "--duration", "2s", "--rate", "2", ...args, "--report-dir", reportDir],
        env,
      );
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain(said);
      expect(run.stderr).not.toContain("EH_");
      expect(run.stderr).not.toMatch(CONTROLS);
      const written = await readdir(reportDir).catch(() => [] as string[]);
      expect(written).not.toContain("summary.json");
    },
  );

  it.for(ODD_LIFETIMES)(
    "contract: token.response-schema FAILs expires_in %j (exit 1), with the same words",
    { timeout: 60_000 },
    async ([announced, said], { target, tmpDir }) => {
      const { args, env } = await target(announced);
      const run = await runInProcess(
        contractCommand,
        ["--only", "token.response-schema", ...args, "--report-dir", path.join(tmpDir, "contract")],
        env,
      );
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/FAIL +token\.response-schema/);
      expect(run.stdout).toContain(said);
    },
  );
});
