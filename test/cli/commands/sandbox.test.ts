import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { describe, expect, it } from "vitest";
import { sandboxCommand } from "../../../cli/commands/sandbox.ts";
import { main } from "../../../cli/main.ts";
import { FAULTS } from "../../../sandbox/index.ts";
import { postCheckoutEvent } from "../../support/post-checkout-event.ts";
import { loadedEntry } from "../../support/run-in-process.ts";
import { makeTestPki } from "../../support/test-ca.ts";

const CLI = fileURLToPath(new URL("../../../bin/event-harness.js", import.meta.url));

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns the real CLI; `onLine` sees each stdout line and may signal the child. A hard limit kills a hang. */
function spawnCli(
  args: readonly string[],
  onLine?: (line: string, child: ChildProcess) => void,
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let pending = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      stdout += data;
      pending += data;
      for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n")) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        onLine?.(line, child);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (data: string) => {
      stderr += data;
    });
    const limit = setTimeout(() => child.kill("SIGKILL"), 25_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(limit);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runs the command in-process through `main`, as the CLI does, with captured streams. */
async function runInProcess(
  args: readonly string[],
  signal: AbortSignal,
  onOutput?: (stdout: string) => void,
) {
  const stdout = new PassThrough().setEncoding("utf8");
  const stderr = new PassThrough().setEncoding("utf8");
  let out = "";
  let err = "";
  stdout.on("data", (data: string) => {
    out += data;
    onOutput?.(out);
  });
  stderr.on("data", (data: string) => {
    err += data;
  });
  const code = await main(["sandbox", ...args], [loadedEntry(sandboxCommand)], {
    stdout,
    stderr,
    env: {},
    signal,
  });
  return { code, stdout: out, stderr: err };
}

interface Handoff {
  auth_url: string;
  token_url: string;
  base_url: string;
  clients: { client_id: string; client_secret: string }[];
  admin_token: string;
}

describe("event-harness sandbox", () => {
  it("--json prints one JSON line that is enough to use the sandbox, and SIGTERM stops it with exit 0", async () => {
    let used: Promise<number> | undefined;
    const exit = await spawnCli(["sandbox", "--port", "0", "--json"], (line, child) => {
      const handoff = JSON.parse(line) as Handoff;
      used = (async () => {
        const client = handoff.clients[0];
        if (client === undefined) throw new Error("no client in the handoff");
        return postCheckoutEvent(
          {
            tokenUrl: `${handoff.auth_url}/oauth/token`,
            baseUrl: handoff.base_url,
            clientId: client.client_id,
            clientSecret: client.client_secret,
          },
          "cli-1",
        );
      })().finally(() => child.kill("SIGTERM"));
    });
    expect(await used).toBe(202);
    expect(exit).toMatchObject({ code: 0, signal: null, stderr: "" });
    const lines = exit.stdout.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("");
    const handoff = JSON.parse(lines[0] ?? "") as Handoff;
    expect(Object.keys(handoff)).toEqual(["auth_url", "token_url", "base_url", "clients", "admin_token"]);
    expect(handoff.token_url).toBe(`${handoff.auth_url}/oauth/token`);
    expect(handoff.admin_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(handoff.auth_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth$/);
    expect(handoff.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(handoff.clients).toEqual([{ client_id: "sandbox-demo", client_secret: "sandbox-demo-secret" }]);
  });

  it("serves a Keycloak-like HTTPS token endpoint with --token-path, --tls-cert, --tls-key and token-basic-only", async () => {
    const pki = await makeTestPki(["127.0.0.1"]);
    try {
      const certFile = path.join(pki.dir, "server.pem");
      const keyFile = path.join(pki.dir, "server.key");
      let answer: Promise<[number, number]> | undefined;
      const path_ = "/realms/harness/protocol/openid-connect/token";
      const exit = await spawnCli(
        [
          "sandbox",
          "--json",
          "--fault",
          "token-basic-only",
          "--token-path",
          path_,
          "--tls-cert",
          certFile,
          "--tls-key",
          keyFile,
        ],
        (line, child) => {
          const handoff = JSON.parse(line) as Handoff;
          answer = (async () => {
            expect(handoff.token_url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:\\d+${path_}$`));
            const dispatcher = new Agent({ connect: { ca: readFileSync(pki.caFile, "utf8") } });
            const ask = async (headers: Record<string, string>, form: Record<string, string>) =>
              (
                await request(handoff.token_url, {
                  method: "POST",
                  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
                  body: new URLSearchParams({ grant_type: "client_credentials", ...form }).toString(),
                  dispatcher,
                })
              ).statusCode;
            const basic = Buffer.from("sandbox-demo:sandbox-demo-secret").toString("base64");
            const statuses: [number, number] = [
              await ask({}, { client_id: "sandbox-demo", client_secret: "sandbox-demo-secret" }),
              await ask({ authorization: `Basic ${basic}` }, {}),
            ];
            await dispatcher.close();
            return statuses;
          })().finally(() => child.kill("SIGTERM"));
        },
      );
      expect(await answer).toEqual([401, 200]);
      expect(exit.code).toBe(0);
    } finally {
      await rm(pki.dir, { recursive: true, force: true });
    }
  });

  it.each([
    [["--tls-cert", "x.pem"], "--tls-cert and --tls-key go together"],
    [["--token-path", "oauth token"], "--token-path: tokenPath must be an absolute path"],
    [["--token-path", "/api/events"], "would shadow another sandbox endpoint"],
  ])("exits 2 on %j", async (args, message) => {
    const exit = await spawnCli(["sandbox", ...args]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(message);
  });

  it("exits 2 with a clear message for an unknown fault", async () => {
    const exit = await spawnCli(["sandbox", "--fault", "token-everything"]);
    expect(exit.code).toBe(2);
    expect(exit.stdout).toBe("");
    expect(exit.stderr).toContain("unknown fault 'token-everything'; valid faults: token-any-grant-type,");
    expect(exit.stderr).toContain("event-harness sandbox --help");
  });

  it("prints URLs, the demo credential, faults and no other secret; stops cleanly on abort", async () => {
    const controller = new AbortController();
    const { code, stdout, stderr } = await runInProcess(
      [
        "--client",
        "sandbox-demo:sandbox-demo-secret",
        "--client",
        "shop-1:s3cret-value",
        "--fault",
        "expiry-never",
      ],
      controller.signal,
      // Stop as soon as the banner is complete, as a user pressing Ctrl+C would.
      (output) => {
        if (output.includes("Stop with Ctrl+C.")) controller.abort();
      },
    );
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toMatch(/Token endpoint {2}http:\/\/127\.0\.0\.1:\d+\/auth\/oauth\/token/);
    expect(stdout).toMatch(/Events {10}http:\/\/127\.0\.0\.1:\d+\/api\/events/);
    expect(stdout).toMatch(
      /Issuer {10}http:\/\/127\.0\.0\.1:\d+\/auth {3}\(metadata at \{issuer\}\/\.well-known\/openid-configuration: give it as --issuer\)/,
    );
    expect(stdout).toContain("sandbox-demo / sandbox-demo-secret  (throwaway demo credential");
    expect(stdout).toContain("shop-1 (secret as given, not shown)");
    expect(stdout).not.toContain("s3cret-value");
    expect(stdout).toContain("Fault           expiry-never: idle tokens never expire");
    expect(stdout).toMatch(
      /Admin {11}POST http:\/\/127\.0\.0\.1:\d+\/auth\/admin\/clients\/\{client_id\}\/rotate/,
    );
    expect(stdout).toMatch(
      /Admin token {5}[A-Za-z0-9_-]{43} {2}\(throwaway credential of this local sandbox\)/,
    );
    expect(stdout).toMatch(/Sandbox stopped\.\n$/);
  });

  it.each([
    [["--client", "no-colon"], /--client takes ID:SECRET/],
    [["--client", ":secret"], /--client takes ID:SECRET/],
    [["--client", "a:1", "--client", "a:2"], /--client a is given twice/],
    [["--port", "70000"], /--port takes a whole number from 0 to 65535/],
    [["--port", "-1"], /--port/],
    [["--expires-in", "0"], /--expires-in/],
    [["--fault-rate", "1.5"], /--fault-rate/],
    [["--strictness", "strict"], /--strictness takes one of/],
    [["--host", ""], /--host must not be empty/],
    [["--admin-token", "short"], /--admin-token: adminToken must be 16 to 512 characters long/],
    [["--admin-token", "has spaces in the admin token"], /--admin-token: adminToken may hold only/],
    [["--bogus"], /unknown option '--bogus'/],
    [["--throughput-limit", "0"], /--throughput-limit takes a whole number from 1/],
    [["--queue-limit", "100"], /--queue-limit applies only with --throughput-limit/],
    [["--throughput-limit", "50", "--queue-limit", "-5"], /--queue-limit/],
  ])("refuses %j with exit 2", async (args, message) => {
    const { code, stdout, stderr } = await runInProcess(args, new AbortController().signal);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
  });

  it("--throughput-limit serves at most N events a second, and the banner says so", async () => {
    const controller = new AbortController();
    let url: string | undefined;
    const running = runInProcess(
      ["--throughput-limit", "5", "--queue-limit", "300"],
      controller.signal,
      (output) => {
        url ??= /Events {10}(\S+)/.exec(output)?.[1];
      },
    );
    while (url === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    const base = url.replace(/\/events$/, "");
    const auth = base.replace(/\/api$/, "/auth");
    const token = await request(`${auth}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=sandbox-demo&client_secret=sandbox-demo-secret",
    }).then(async (r) => (JSON.parse(await r.body.text()) as { access_token: string }).access_token);
    // Ten events at once: 5/s with 300 ms of queue takes the ones due at 0 and 200 ms, and refuses the rest.
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(url as string, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({
            type: "checkout",
            customer: { email: "ada@example.com" },
            channel: { id: "chl-0f8e1c2a-5b0d-4e1f-9a5c-3d2b1a0f9e8d", type: "etrusted" },
            transaction: { reference: `ord-${i}`, date: "2026-01-02T03:04:05.678Z" },
            system: "tests",
            systemVersion: "1",
          }),
        }).then(async (r) => {
          await r.body.text();
          return r.statusCode;
        }),
      ),
    );
    controller.abort();
    const { code, stdout } = await running;
    expect(code).toBe(0);
    expect(stdout).toContain(
      "Throughput      at most 5 events/s; an event that would wait over 300 ms is refused (503)",
    );
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(6);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(2);
  });

  it("uses --admin-token (or EVENT_HARNESS_ADMIN_TOKEN) for the admin endpoint and does not print a given one", async () => {
    const token = "given-admin-token-0123456789abcdef";
    const controller = new AbortController();
    let rotated: number | undefined;
    const { code, stdout } = await runInProcess(["--admin-token", token], controller.signal, (output) => {
      const authUrl = /auth URL (http:\/\/\S+)\)/.exec(output)?.[1];
      if (authUrl === undefined || !output.includes("Stop with Ctrl+C.") || rotated !== undefined) return;
      rotated = 0;
      void request(`${authUrl}/admin/clients/sandbox-demo/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      })
        .then(async (response) => {
          await response.body.dump();
          rotated = response.statusCode;
        })
        .finally(() => controller.abort());
    });
    expect(code).toBe(0);
    expect(rotated).toBe(200);
    expect(stdout).toContain("Admin token     as given (not shown)");
    expect(stdout).not.toContain(token);
  });

  it("--help explains the command with examples and lists every fault", async () => {
    const { code, stdout } = await runInProcess(["--help"], new AbortController().signal);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: event-harness sandbox [options]");
    expect(stdout).toContain("Examples:");
    expect(stdout).toContain("throwaway");
    for (const fault of FAULTS) expect(stdout).toContain(`${fault.name} `);
  });
});
