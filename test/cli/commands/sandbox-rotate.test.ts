import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { afterEach } from "vitest";
import { sandboxRotateCommand } from "../../../cli/commands/sandbox-rotate.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { DEMO_CLIENT, startSandbox } from "../../../sandbox/index.ts";
import { startCountingProxy } from "../../support/counting-proxy.ts";
import { test as base, describe, expect, it } from "../../support/fixtures.ts";
import { startHostileServer } from "../../support/hostile-server.ts";
import type { InProcessRun } from "../../support/run-in-process.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import type { TestPki } from "../../support/test-ca.ts";
import { makeTestPki } from "../../support/test-ca.ts";

const ADMIN_TOKEN = "rotate-cli-admin-token-0123456789";

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function started(): Promise<RunningSandbox> {
  sandbox = await startSandbox({ port: 0, adminToken: ADMIN_TOKEN });
  return sandbox;
}

function rotateCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = { EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN },
): Promise<InProcessRun> {
  return runInProcess(sandboxRotateCommand, args, env);
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
  it("writes the new secret to a 0600 file, says what happened and never prints a secret", async ({
    tmpDir: dir,
  }) => {
    const sb = await started();
    const file = path.join(dir, "demo.secret");
    const run = await rotateCli([...target(sb), "--secret-file", file], {
      EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
      EVENT_API_CLIENT_SECRET: DEMO_CLIENT.clientSecret,
    });
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
    expect(run.stdout).toMatch(
      /verify-rotation --old-secret-file \S+ --old-token-file \S+ --expect-old refused --expect-old-tokens valid/,
    );
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(DEMO_CLIENT.clientSecret);
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

  it("replaces an existing file atomically, never writing through a symlink", async ({ tmpDir: dir }) => {
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

  it("checks the secret file's directory before rotating", async ({ tmpDir: dir }) => {
    const sb = await started();
    const run = await rotateCli([...target(sb), "--secret-file", path.join(dir, "missing", "x.secret")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--secret-file .*cannot create a file in .*missing \(ENOENT\)/);
    expect(sb.clients).toEqual([DEMO_CLIENT]);
    const onDir = await rotateCli([...target(sb), "--secret-file", dir]);
    expect(onDir.code).toBe(2);
    expect(onDir.stderr).toMatch(/is a directory/);
  });

  it("reports a wrong admin token and an unknown client as configuration errors (exit 2)", async ({
    tmpDir: dir,
  }) => {
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

  it("takes --timeout from EVENT_API_TIMEOUT as every target command does; the flag wins", async () => {
    const silent = await startHostileServer("never-answers");
    try {
      const args = ["--auth-url", `${silent.url}/auth`, "--client-id", "x", "--show-secret"];
      const fromEnv = await rotateCli(args, {
        EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
        EVENT_API_TIMEOUT: "0.5",
      });
      expect(fromEnv.code).toBe(3);
      expect(fromEnv.stderr).toMatch(/no answer within 500 ms\); nothing was rotated/);
      const flagWins = await rotateCli([...args, "--timeout", "0.3"], {
        EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
        EVENT_API_TIMEOUT: "600",
      });
      expect(flagWins.code).toBe(3);
      expect(flagWins.stderr).toMatch(/no answer within 300 ms\); nothing was rotated/);
    } finally {
      await silent.close();
    }
    const invalid = await rotateCli(
      ["--auth-url", "http://127.0.0.1:9/auth", "--client-id", "x", "--show-secret"],
      {
        EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
        EVENT_API_TIMEOUT: "soon",
      },
    );
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("--timeout takes a number from 0.1 to 600, got 'soon'");
    const help = await rotateCli(["--help"]);
    expect(help.stdout).toMatch(/--timeout SECONDS .*\(env EVENT_API_TIMEOUT\)/);
  });

  it("reads an endless answer only up to the body cap: exit 3, no secret file, not left to the deadline", async ({
    tmpDir: dir,
  }) => {
    const endless = await startHostileServer("endless-body");
    try {
      const file = path.join(dir, "endless.secret");
      // A deadline no loopback read of 1 MiB comes near, so only the cap can have ended the request.
      const run = await rotateCli([
        "--auth-url",
        `${endless.url}/auth`,
        "--client-id",
        "x",
        "--secret-file",
        file,
        "--timeout",
        "600",
      ]);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /the admin endpoint \S+ answered, but its response body exceeded 1 MiB; the secret may have changed: rotate again/,
      );
      expect(run.stderr).not.toContain("no answer within");
      await expect(stat(file)).rejects.toThrow(/ENOENT/);
      expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    } finally {
      await endless.close();
    }
  });

  it("names every option it takes in its usage line", async () => {
    const help = await rotateCli(["--help"]);
    // The usage line wraps to the width, its continuations indented: read as one line again.
    const usage = (/^Usage: event-harness ([\s\S]*?)\n\n/m.exec(help.stdout)?.[1] ?? "").replace(/\s+/g, " ");
    expect(usage).toContain("[--timeout S]");
    for (const name of Object.keys(sandboxRotateCommand.options)) expect(usage).toContain(`--${name}`);
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

/**
 * The sandbox as a remote one looks: HTTPS with a certificate from a CA of the test's own, under a .test name that
 * resolves nowhere but in the loopback proxy, so a rotation that succeeds by that name went through the proxy.
 */
/** Runs a printed command line as a user's shell would, with `event-harness` on PATH and no target settings. */
async function runAsPrinted(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const bin = path.join(cwd, "bin");
  await mkdir(bin, { recursive: true });
  const cli = fileURLToPath(new URL("../../../bin/event-harness.js", import.meta.url));
  await writeFile(path.join(bin, "event-harness"), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, {
    mode: 0o755,
  });
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command], {
      cwd,
      env: { PATH: `${bin}:${process.env.PATH ?? ""}`, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the 'Verify with' command sandbox-rotate prints", () => {
  const withCurrentSecret = {
    EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
    EVENT_API_CLIENT_SECRET: DEMO_CLIENT.clientSecret,
  };

  it.for([
    [[], "refused", "valid"],
    [["--overlap", "60", "--revoke"], "accepted", "revoked"],
  ] as const)(
    "after %j runs as printed and decides the old secret (%s) and earlier tokens (%s)",
    async ([rotation, old, tokens], { tmpDir: dir }) => {
      const sb = await started();
      const cwd = await mkdtemp(path.join(dir, "verify-"));
      const file = path.join(cwd, "new.secret");
      const run = await rotateCli([...target(sb), ...rotation, "--secret-file", file], withCurrentSecret);
      expect(run.code, run.stderr).toBe(0);
      const command = /^Verify with: (.+)$/m.exec(run.stdout)?.[1] ?? "";
      expect(command).toContain(`--expect-old ${old} --expect-old-tokens ${tokens}`);
      const secrets = [await readFile(file, "utf8"), DEMO_CLIENT.clientSecret];
      const oldToken = /--old-token-file (\S+)/.exec(command)?.[1];
      expect(oldToken).toBeDefined();
      secrets.push(await readFile(path.resolve(cwd, oldToken ?? ""), "utf8"));
      for (const kept of [file, `${file}.old-secret`, `${file}.old-token`]) {
        expect((await stat(kept)).mode & 0o777).toBe(0o600);
      }
      for (const secret of secrets) expect(run.stdout + run.stderr).not.toContain(secret);
      const printed = await runAsPrinted(command, cwd);
      expect(printed.code, printed.output).toBe(0);
      expect(printed.output).toMatch(/PASS +rotation\.new-secret +MUST/);
      expect(printed.output).toMatch(
        new RegExp(`PASS +rotation\\.old-secret +MUST +the old secret is ${old}`),
      );
      expect(printed.output).toMatch(
        new RegExp(`PASS +rotation\\.old-tokens +MUST +the earlier token is ${tokens}`),
      );
      for (const secret of secrets) expect(printed.output).not.toContain(secret);
    },
  );

  it("without the current secret, prints a command that checks the new secret only, and says so", async ({
    tmpDir: dir,
  }) => {
    const sb = await started();
    const cwd = await mkdtemp(path.join(dir, "verify-"));
    const run = await rotateCli([...target(sb), "--secret-file", path.join(cwd, "new.secret")]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/old secret and earlier tokens are not checked/);
    expect(run.stdout).toContain(
      `EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token --auth-url ${sb.authUrl} --base-url ${sb.baseUrl} --client-id`,
    );
    const command = /^Verify with: (.+)$/m.exec(run.stdout)?.[1] ?? "";
    expect(command).not.toMatch(/--expect-old|<|…/);
    const printed = await runAsPrinted(command, cwd);
    expect(printed.code, printed.output).toBe(0);
    expect(printed.output).toMatch(/PASS +rotation\.new-secret +MUST/);
  });

  it("--show-secret prints a command with no placeholder, which refuses to pass unchecked", async ({
    tmpDir: dir,
  }) => {
    const sb = await started();
    const cwd = await mkdtemp(path.join(dir, "verify-"));
    const run = await rotateCli([...target(sb), "--show-secret"], withCurrentSecret);
    expect(run.code, run.stderr).toBe(0);
    const command = /^Verify with: (.+)$/m.exec(run.stderr)?.[1] ?? "";
    expect(command).not.toMatch(/<|…/);
    // Run as printed in a shell without the secrets it names: exit 2, never a verdict on unchecked expectations.
    const printed = await runAsPrinted(command, cwd);
    expect(printed.code, printed.output).toBe(2);
  });

  it("refuses a current secret the sandbox does not take, and rotates nothing (exit 2)", async ({
    tmpDir: dir,
  }) => {
    const sb = await started();
    const run = await rotateCli([...target(sb), "--secret-file", path.join(dir, "never.secret")], {
      EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
      EVENT_API_CLIENT_SECRET: "not-the-current-secret",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /EVENT_API_CLIENT_SECRET is not the current secret of client sandbox-demo \(401/,
    );
    expect(run.stderr).not.toContain("not-the-current-secret");
    expect(sb.clients).toEqual([DEMO_CLIENT]);
    expect(
      (await readdir(dir)).filter((name) => name.startsWith("never.secret") || name.endsWith(".tmp")),
    ).toEqual([]);
  });
});

const HOST = "eah-rotate.test";
const PROXY_PASSWORD = `proxy-pass-${randomBytes(6).toString("hex")}`;

/** The test CA and the counting proxy these tests share, made once for the file. */
const tlsTest = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("pki", { scope: "file" }, async ({}, { onCleanup }) => {
    const pki = await makeTestPki([HOST, "127.0.0.1"]);
    onCleanup(() => rm(pki.dir, { recursive: true, force: true }));
    return pki;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("proxy", { scope: "file" }, async ({}, { onCleanup }) => {
    const proxy = await startCountingProxy([HOST]);
    onCleanup(() => proxy.close());
    return proxy;
  })
  .extend("proxyWithPassword", { scope: "file" }, async ({ proxy }) => {
    const url = new URL(proxy.url);
    url.username = "eah-user";
    url.password = PROXY_PASSWORD;
    return url.toString();
  });

describe("event-harness sandbox-rotate reaches the sandbox as every command reaches a target", () => {
  /** Every output of these runs, searched for secrets at the end. */
  const outputs: string[] = [];
  const it = tlsTest;

  async function startedTls(pki: TestPki): Promise<RunningSandbox> {
    sandbox = await startSandbox({
      port: 0,
      adminToken: ADMIN_TOKEN,
      tls: { key: pki.serverKey, cert: pki.serverCert },
    });
    return sandbox;
  }

  async function rotate(args: readonly string[], env: NodeJS.ProcessEnv) {
    const run = await rotateCli(args, { EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN, ...env });
    outputs.push(run.stdout, run.stderr);
    return run;
  }

  /** A loopback port nothing listens on: a dead proxy. */
  async function deadPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it("trusts the CA in NODE_EXTRA_CA_CERTS", async ({ tmpDir: dir, pki }) => {
    const sb = await startedTls(pki);
    const file = path.join(dir, "tls.secret");
    const run = await rotate([...target(sb), "--secret-file", file, "--timeout", "5"], {
      NODE_EXTRA_CA_CERTS: pki.caFile,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(sb.authUrl).toMatch(/^https:\/\/127\.0\.0\.1:/);
    expect(run.stdout).toContain(`Rotated the secret of client sandbox-demo at ${sb.authUrl}.`);
    expect(await readFile(file, "utf8")).toBe(sb.clients[0]?.clientSecret);
    expect(sb.clients[0]?.clientSecret).not.toBe(DEMO_CLIENT.clientSecret);
  });

  it("without the CA, exits 3 with a plain TLS message and rotates nothing", async ({ pki }) => {
    const sb = await startedTls(pki);
    const run = await rotate([...target(sb), "--show-secret", "--timeout", "5"], {});
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /cannot reach the admin endpoint https:\/\/127\.0\.0\.1:\d+\/auth\/admin\/clients\/sandbox-demo\/rotate \(TLS: the target's certificate is not trusted \(\w+\): give its CA in NODE_EXTRA_CA_CERTS/,
    );
    expect(run.stderr).toContain("nothing was rotated");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(sb.clients).toEqual([DEMO_CLIENT]);
  });

  it("--insecure (or EVENT_API_INSECURE=1) skips verification and warns", async ({ pki }) => {
    const sb = await startedTls(pki);
    const flag = await rotate([...target(sb), "--insecure", "--show-secret"], {});
    expect(flag.code, flag.stderr).toBe(0);
    expect(flag.stdout).toBe(`${sb.clients[0]?.clientSecret}\n`);
    expect(flag.stderr).toContain("WARNING: TLS certificates were not verified (--insecure)");
    // The verify-rotation it suggests reaches the sandbox the same way.
    expect(flag.stderr).toMatch(/verify-rotation .* --client-id sandbox-demo --insecure\n/);
    const env = await rotate([...target(sb), "--show-secret"], { EVENT_API_INSECURE: "1" });
    expect(env.code, env.stderr).toBe(0);
    expect(env.stderr).toContain("WARNING: TLS certificates were not verified (--insecure)");
  });

  it("goes through HTTPS_PROXY with the proxy's credentials", async ({ pki, proxy, proxyWithPassword }) => {
    const sb = await startedTls(pki);
    const before = proxy.total();
    const authUrl = sb.authUrl.replace("127.0.0.1", HOST);
    const run = await rotate(
      ["--auth-url", authUrl, "--client-id", DEMO_CLIENT.clientId, "--show-secret", "--timeout", "5"],
      { NODE_EXTRA_CA_CERTS: pki.caFile, HTTPS_PROXY: proxyWithPassword, NO_PROXY: "" },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Rotated the secret of client sandbox-demo at ${authUrl}.`);
    expect(proxy.forwarded.get(`${HOST}:${new URL(sb.authUrl).port}`)).toBeGreaterThan(0);
    expect(proxy.total()).toBe(before + 1);
    expect(proxy.authorizations.at(-1)).toBe(
      `Basic ${Buffer.from(`eah-user:${PROXY_PASSWORD}`).toString("base64")}`,
    );
    expect(sb.clients[0]?.clientSecret).not.toBe(DEMO_CLIENT.clientSecret);
  });

  it("names a dead proxy without its password (exit 3), and NO_PROXY bypasses it", async ({ pki }) => {
    const sb = await startedTls(pki);
    const dead = `http://eah-user:${PROXY_PASSWORD}@127.0.0.1:${await deadPort()}`;
    const env = { NODE_EXTRA_CA_CERTS: pki.caFile, HTTPS_PROXY: dead };
    const run = await rotate([...target(sb), "--show-secret", "--timeout", "5"], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /cannot reach the admin endpoint \S+ via the proxy http:\/\/127\.0\.0\.1:\d+ \(.+\); nothing was rotated/,
    );
    expect(sb.clients).toEqual([DEMO_CLIENT]);
    const bypass = await rotate([...target(sb), "--show-secret", "--timeout", "5"], {
      ...env,
      NO_PROXY: "127.0.0.1",
    });
    expect(bypass.code, bypass.stderr).toBe(0);
  });

  it.for([
    [
      { NODE_EXTRA_CA_CERTS: "/nonexistent/eah-ca.pem" },
      /cannot read the CA file \/nonexistent\/eah-ca\.pem/,
    ],
    [
      { HTTPS_PROXY: "socks5://127.0.0.1:1080" },
      /HTTPS_PROXY\/HTTP_PROXY must be an http:\/\/ or https:\/\/ URL/,
    ],
    [{ EVENT_API_INSECURE: "maybe" }, /EVENT_API_INSECURE takes 1, true/],
  ] as const)(
    "refuses the connection settings %j with exit 2 before rotating",
    async ([env, message], { pki }) => {
      const sb = await startedTls(pki);
      const run = await rotate([...target(sb), "--show-secret"], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(sb.clients).toEqual([DEMO_CLIENT]);
    },
  );

  it("never shows the admin token or the proxy password", () => {
    const everything = outputs.join("\n");
    // The dead proxy's run is among the outputs searched: its address is named, its password is not.
    expect(everything).toMatch(/via the proxy http:\/\/127\.0\.0\.1:\d+ /);
    expect(everything).not.toContain(ADMIN_TOKEN);
    expect(everything).not.toContain(PROXY_PASSWORD);
    expect(everything).not.toContain(Buffer.from(`eah-user:${PROXY_PASSWORD}`).toString("base64"));
  });
});
