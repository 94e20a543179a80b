import { lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { DEMO_CLIENT, startSandbox } from "../../../sandbox/index.ts";
import { main } from "../../../scripts/cli/main.ts";
import { sandboxRotateCommand } from "../../../scripts/commands/sandbox-rotate.ts";
import { loadedEntry } from "../../support/run-in-process.ts";

const ADMIN_TOKEN = "rotate-cli-admin-token-0123456789";

let dir: string;
let sandbox: RunningSandbox | undefined;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "eah-sandbox-rotate-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function started(): Promise<RunningSandbox> {
  sandbox = await startSandbox({ port: 0, adminToken: ADMIN_TOKEN });
  return sandbox;
}

async function rotateCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = { EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN },
) {
  const stdout = new PassThrough().setEncoding("utf8");
  const stderr = new PassThrough().setEncoding("utf8");
  let out = "";
  let err = "";
  stdout.on("data", (data: string) => {
    out += data;
  });
  stderr.on("data", (data: string) => {
    err += data;
  });
  const code = await main(["sandbox-rotate", ...args], [loadedEntry(sandboxRotateCommand)], {
    stdout,
    stderr,
    env,
    signal: new AbortController().signal,
  });
  return { code, stdout: out, stderr: err };
}

async function tokenStatus(sb: RunningSandbox, secret: string): Promise<number> {
  const response = await request(`${sb.authUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: DEMO_CLIENT.clientId,
      client_secret: secret,
      grant_type: "client_credentials",
    }).toString(),
  });
  await response.body.dump();
  return response.statusCode;
}

function target(sb: RunningSandbox): string[] {
  return ["--auth-url", sb.authUrl, "--client-id", DEMO_CLIENT.clientId];
}

describe("event-harness sandbox-rotate", () => {
  it("writes the new secret to a 0600 file, says what happened and never prints a secret", async () => {
    const sb = await started();
    const file = path.join(dir, "demo.secret");
    const run = await rotateCli([...target(sb), "--secret-file", file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const secret = await readFile(file, "utf8");
    expect(secret).toBe(sb.clients[0]?.clientSecret);
    expect(secret).not.toBe(DEMO_CLIENT.clientSecret);
    expect(secret).not.toMatch(/\s/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(run.stdout).toContain(`Rotated the secret of client sandbox-demo at ${sb.authUrl}.`);
    expect(run.stdout).toMatch(/New secret +written to .*demo\.secret \(mode 0600\)/);
    expect(run.stdout).toMatch(/Old secret +refused from now on/);
    expect(run.stdout).toMatch(/Earlier tokens +valid until they expire/);
    expect(run.stdout).toContain("verify-rotation --expect-old refused --expect-old-tokens valid");
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(ADMIN_TOKEN);
    }
    expect(await tokenStatus(sb, DEMO_CLIENT.clientSecret)).toBe(401);
    expect(await tokenStatus(sb, secret)).toBe(200);
    // No temporary file is left behind.
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("--show-secret prints the secret alone on stdout and the summary on stderr; --overlap and --revoke apply", async () => {
    const sb = await started();
    const run = await rotateCli([...target(sb), "--overlap", "60", "--revoke", "--show-secret"]);
    expect(run.code, run.stderr).toBe(0);
    const secret = sb.clients[0]?.clientSecret;
    expect(run.stdout).toBe(`${secret}\n`);
    expect(run.stderr).toMatch(/Old secret +accepted until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(60 s overlap\)/);
    expect(run.stderr).toMatch(/Earlier tokens +revoked \(not-before-policy \d+/);
    expect(run.stderr).not.toContain(ADMIN_TOKEN);
    expect(await tokenStatus(sb, DEMO_CLIENT.clientSecret)).toBe(200);
  });

  it("replaces an existing file atomically, never writing through a symlink", async () => {
    const sb = await started();
    const victim = path.join(dir, "victim.txt");
    await writeFile(victim, "do not touch", { mode: 0o644 });
    const link = path.join(dir, "linked.secret");
    await symlink(victim, link);
    const run = await rotateCli([...target(sb), "--secret-file", link]);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(victim, "utf8")).toBe("do not touch");
    expect((await lstat(link)).isSymbolicLink()).toBe(false);
    expect((await stat(link)).mode & 0o777).toBe(0o600);
    expect(await readFile(link, "utf8")).toBe(sb.clients[0]?.clientSecret);
  });

  it.each([
    [["--show-secret"], {}, /EVENT_HARNESS_ADMIN_TOKEN must hold the sandbox's admin token/],
    [
      ["--show-secret", "--secret-file", "x"],
      undefined,
      /exactly one of --secret-file FILE and --show-secret/,
    ],
    [[], undefined, /exactly one of --secret-file FILE and --show-secret/],
    [["--overlap=-5", "--show-secret"], undefined, /--overlap takes a whole number from 0 to 86400/],
    [["--overlap", "86401", "--show-secret"], undefined, /--overlap/],
  ])("refuses %j (env %j) with exit 2 and rotates nothing", async (args, env, message) => {
    const sb = await started();
    const run = await rotateCli([...target(sb), ...args], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(sb.clients).toEqual([DEMO_CLIENT]);
  });

  it("checks the secret file's directory before rotating", async () => {
    const sb = await started();
    const run = await rotateCli([...target(sb), "--secret-file", path.join(dir, "missing", "x.secret")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--secret-file .*cannot create a file in .*missing \(ENOENT\)/);
    expect(sb.clients).toEqual([DEMO_CLIENT]);
    const onDir = await rotateCli([...target(sb), "--secret-file", dir]);
    expect(onDir.code).toBe(2);
    expect(onDir.stderr).toMatch(/is a directory/);
  });

  it("reports a wrong admin token and an unknown client as configuration errors (exit 2)", async () => {
    const sb = await started();
    const wrong = await rotateCli([...target(sb), "--show-secret"], {
      EVENT_HARNESS_ADMIN_TOKEN: "wrong-admin-token-0123456789",
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/refused the admin token \(401: The admin token is not valid\)/);
    expect(wrong.stderr).not.toContain("wrong-admin-token-0123456789");
    const file = path.join(dir, "never.secret");
    const unknown = await rotateCli([
      "--auth-url",
      sb.authUrl,
      "--client-id",
      "stranger",
      "--secret-file",
      file,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/answered 404: No client with this id is registered/);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(sb.clients).toEqual([DEMO_CLIENT]);
  });

  it("exits 3 when the sandbox cannot be reached", async () => {
    const sb = await started();
    const authUrl = sb.authUrl;
    await sb.close();
    sandbox = undefined;
    const run = await rotateCli([
      "--auth-url",
      authUrl,
      "--client-id",
      "x",
      "--show-secret",
      "--timeout",
      "2",
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cannot reach the admin endpoint .*ECONNREFUSED.*nothing was rotated/);
  });

  it("reads --auth-url and --client-id from the environment, and refuses a URL with user info", async () => {
    const sb = await started();
    const run = await rotateCli(["--show-secret"], {
      EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
      EVENT_API_AUTH_URL: sb.authUrl,
      EVENT_API_CLIENT_ID: DEMO_CLIENT.clientId,
    });
    expect(run.code, run.stderr).toBe(0);
    const userInfo = await rotateCli([
      "--auth-url",
      sb.authUrl.replace("http://", "http://user:pw@"),
      "--client-id",
      "x",
      "--show-secret",
    ]);
    expect(userInfo.code).toBe(2);
  });
});
