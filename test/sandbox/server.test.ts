import { once } from "node:events";
import { connect, createServer } from "node:net";
import { Agent, request } from "undici";
import { describe, expect, it, vi } from "vitest";
import { startSandbox } from "../../sandbox/index.ts";
import { CLOSE_GRACE_MS, SLOW_DELAY_MS } from "../../sandbox/server.ts";
import type { TestSandbox } from "./support.ts";
import { FORM, startTestSandbox, tokenForm, validEvent } from "./support.ts";

/** Waits until the sandbox itself has received `count` requests it has not answered: arrival, not a guess. */
function untilOpenRequests(t: TestSandbox, count: number): Promise<void> {
  return vi.waitFor(() => expect(t.sandbox.stats().openRequests).toBe(count), {
    timeout: 10_000,
    interval: 5,
  });
}

describe("startSandbox", () => {
  it("listens on 127.0.0.1 with an ephemeral port and reports its URLs, clients and settings", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const origin = new URL(sandbox.authUrl).origin;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.authUrl).toBe(`${origin}/auth`);
      expect(sandbox.baseUrl).toBe(`${origin}/api`);
      expect(sandbox.jwksUrl).toBe(`${origin}/auth/.well-known/jwks.json`);
      expect(sandbox.clients).toEqual([{ clientId: "sandbox-demo", clientSecret: "sandbox-demo-secret" }]);
      expect(sandbox.expiresIn).toBe(300);
      expect(sandbox.faults).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it.each([
    [{ port: 70_000 }, /port/],
    [{ expiresIn: 0 }, /expiresIn/],
    [{ expiresIn: 1.5 }, /expiresIn/],
    [{ expiresIn: 600, maxTokenAgeSeconds: 300 }, /maxTokenAgeSeconds/],
    [{ faultRate: 2 }, /faultRate/],
    [{ clients: [] }, /at least one client/],
    [{ clients: [{ clientId: "a", clientSecret: "" }] }, /clientSecret/],
    [
      {
        clients: [
          { clientId: "a", clientSecret: "x" },
          { clientId: "a", clientSecret: "y" },
        ],
      },
      /twice/,
    ],
    [{ faults: ["no-such-fault" as never] }, /unknown fault/],
    [{ maxBodyBytes: 0 }, /maxBodyBytes/],
  ])("rejects impossible options %j", async (options, message) => {
    await expect(startSandbox(options)).rejects.toThrow(message);
  });

  it("rejects when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startSandbox({ port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });
});

describe("close()", () => {
  it("cuts a request held by `slow` itself, waiting neither for the slow delay nor for its grace period", async () => {
    // The grace period is the bound below: it must be shorter than the delay it proves close() does not wait for.
    expect(CLOSE_GRACE_MS).toBeLessThan(SLOW_DELAY_MS);
    const t = await startTestSandbox({ faults: ["slow"] });
    const pending = request(t.tokenUrl, {
      method: "POST",
      headers: { "content-type": FORM },
      body: tokenForm(),
    }).then(
      (response) => response.statusCode,
      (error: unknown) => (error as { code?: string }).code,
    );
    await untilOpenRequests(t, 1);
    // Armed before close() arms its own grace timer, so a close() that left the request to the grace period loses.
    let bound: NodeJS.Timeout | undefined;
    const graceEnded = new Promise((resolve) => {
      bound = setTimeout(() => resolve("still open when the grace period ended"), CLOSE_GRACE_MS);
    });
    const outcome = await Promise.race([t.sandbox.close().then(() => "closed"), graceEnded]);
    clearTimeout(bound);
    expect(outcome).toBe("closed");
    expect(await pending).toMatch(/^UND_ERR_SOCKET|^ECONNRESET$/);
    // Its socket's own close event comes a turn after close() resolves.
    await untilOpenRequests(t, 0);
  });

  it("closes idle keep-alive connections, is idempotent, and refuses new connections afterwards", async () => {
    const t = await startTestSandbox();
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    try {
      const token = await t.token();
      const first = await request(t.eventsUrl, {
        dispatcher: agent,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(validEvent()),
      });
      expect(first.statusCode).toBe(202);
      await first.body.dump();
      const started = performance.now();
      await Promise.all([t.sandbox.close(), t.sandbox.close()]);
      await t.sandbox.close();
      expect(performance.now() - started).toBeLessThan(1_000);
      await expect(request(t.eventsUrl, { dispatcher: agent, method: "POST" })).rejects.toThrow();
    } finally {
      await agent.close();
    }
  });

  it("lets a request that is still arriving finish, then closes its connection", async () => {
    const t = await startTestSandbox();
    const token = await t.token();
    // The token request must be over on the server's side too, so the one open request below is ours.
    await untilOpenRequests(t, 0);
    const body = Buffer.from(JSON.stringify(validEvent()));
    const { port } = new URL(t.eventsUrl);
    const socket = connect(Number(port), "127.0.0.1");
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("utf8");
    });
    const ended = once(socket, "close");
    socket.write(
      `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.subarray(0, 10).toString()}`,
    );
    await untilOpenRequests(t, 1);
    const closing = t.sandbox.close();
    socket.write(body.subarray(10));
    await closing;
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 202 Accepted\r\n/);
  });
});
