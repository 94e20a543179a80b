import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenCommand } from "../../../cli/commands/token.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { listenOnLoopback } from "../../support/loopback.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const SECRET = "token-command-secret-0123456789";

describe("event-harness token", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, clients: [{ clientId: "token-client", clientSecret: SECRET }] });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const target = () => [
    "--auth-url",
    sandbox.authUrl,
    "--base-url",
    sandbox.baseUrl,
    "--client-id",
    "token-client",
  ];

  it("prints one token, alone, on stdout (exit 0); the API accepts it; stderr says where it came from without it", async () => {
    const run = await runInProcess(tokenCommand, target(), { EVENT_API_CLIENT_SECRET: SECRET });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = run.stdout.trim();
    expect(run.stderr).toBe(
      `event-harness token: token for client token-client from ${sandbox.tokenUrl}, expires_in 300s\n`,
    );
    expect(run.stderr).not.toContain(token.slice(0, 20));
    const read = await fetch(`${sandbox.baseUrl}/events/no-such-ref`, {
      headers: { authorization: `Bearer ${token}` },
    });
    // 404: the bearer was accepted and the event looked up (a refused token would be 401).
    expect(read.status).toBe(404);
  });

  it("a refused secret is exit 3 in the preflight's one sentence that names the client and never the secret", async () => {
    const run = await runInProcess(tokenCommand, target(), { EVENT_API_CLIENT_SECRET: "wrong-secret-value" });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "event-harness token: no token: the credentials for client token-client were refused (401 with --client-auth post, 401 with basic): check the client id and secret, or whether the secret was rotated\n",
    );
  });

  it("sends the target's --resource and --token-param, as every token request of the harness does", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        seen.push(body);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: "a.b.c", token_type: "Bearer", expires_in: 60 }));
      });
    });
    const loopback = await listenOnLoopback(server);
    try {
      const url = loopback.url;
      const args = ["--token-url", `${url}/token`, "--base-url", `${url}/api`, "--client-id", "c"];
      const extra = ["--resource", "https://api.example.com", "--token-param", "organization=org_1"];
      const run = await runInProcess(tokenCommand, [...args, ...extra], { EVENT_API_CLIENT_SECRET: SECRET });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("a.b.c\n");
      const form = new URLSearchParams(seen[0]);
      expect(form.get("resource")).toBe("https://api.example.com");
      expect(form.get("organization")).toBe("org_1");
    } finally {
      await loopback.close();
    }
  });

  it("without a target it is exit 2 and says why the embedded sandbox is no use here", async () => {
    const run = await runInProcess(tokenCommand, []);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "token needs a target: --auth-url (or --token-url or --issuer), --base-url, --client-id",
    );
  });

  it("an unreachable token endpoint is exit 3 (no token, nothing decided)", async () => {
    const closed = await startSandbox({ port: 0 });
    await closed.close();
    const run = await runInProcess(
      tokenCommand,
      ["--auth-url", closed.authUrl, "--base-url", closed.baseUrl, "--client-id", "a"],
      { EVENT_API_CLIENT_SECRET: SECRET },
    );
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `event-harness token: no token: cannot reach the token endpoint ${closed.tokenUrl}`,
    );
  });
});
