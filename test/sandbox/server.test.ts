import { once } from "node:events";
import { connect, createServer } from "node:net";
import { Agent, request } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startSandbox } from "../../sandbox/index.ts";
import { resolveOptions } from "../../sandbox/options.ts";
import { CLOSE_GRACE_MS } from "../../sandbox/server.ts";
import type { TestSandbox } from "./support.ts";
import { FORM, startTestSandbox, tokenForm, validEvent } from "./support.ts";

/** The real setTimeout, kept before any test fakes timers: waiting for the sandbox must never move a faked clock. */
const realSetTimeout = globalThis.setTimeout;

/** Polls on real time (vi.waitFor would advance faked timers) until `condition` holds; `what` names it on failure. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let polls = 0; !condition(); polls += 1) {
    if (polls === 2_000) throw new Error(`gave up waiting until ${what}`);
    await new Promise((resolve) => realSetTimeout(resolve, 5));
  }
}

/** Waits until the sandbox itself has received `count` requests it has not answered: arrival, not a guess. */
function untilOpenRequests(t: TestSandbox, count: number): Promise<void> {
  return until(() => t.sandbox.stats().openRequests === count, `the sandbox holds ${count} open request(s)`);
}

/** Fakes the timers `slow` and close() arm, so their delays pass only when a test advances them; I/O stays real. */
function fakeTimers(): void {
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"],
    shouldClearNativeTimers: true,
  });
}

/** A raw connection that has sent the headers of an event POST and the first 10 bytes of its body. */
async function halfSentEvent(t: TestSandbox, token: string) {
  const body = Buffer.from(JSON.stringify(validEvent()));
  const { port } = new URL(t.eventsUrl);
  const socket = connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  const client = { socket, received: "", ended: once(socket, "close"), rest: body.subarray(10) };
  socket.on("data", (chunk: Buffer) => {
    client.received += chunk.toString("utf8");
  });
  socket.write(
    `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.subarray(0, 10).toString()}`,
  );
  await untilOpenRequests(t, 1);
  return client;
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
  afterEach(() => {
    vi.useRealTimers();
  });

  it("cuts a request held by `slow` itself, waiting neither for the slow delay nor for its grace period", async () => {
    const t = await startTestSandbox({ faults: ["slow"] });
    // Faked before the request arrives, so neither the slow delay nor the grace period can pass unless advanced.
    fakeTimers();
    const pending = request(t.tokenUrl, {
      method: "POST",
      headers: { "content-type": FORM },
      body: tokenForm(),
    }).then(
      (response) => response.statusCode,
      (error: unknown) => (error as { code?: string }).code,
    );
    await untilOpenRequests(t, 1);
    expect(t.sandbox.stats().openConnections).toBe(1);
    const closing = t.sandbox.close();
    expect(t.sandbox.stats().openConnections).toBe(0);
    // The faked clock never moves: a close() that waited for either timer would never resolve.
    await closing;
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
      await untilOpenRequests(t, 0);
      // The agent keeps its connection, and the server has not yet ended it (its keep-alive timeout is 5 s).
      expect(t.sandbox.stats().openConnections).toBeGreaterThan(0);
      fakeTimers();
      const closing = Promise.all([t.sandbox.close(), t.sandbox.close()]);
      // Destroyed by close() itself, before anything else could run: no timeout of any kind ended them.
      expect(t.sandbox.stats().openConnections).toBe(0);
      await closing;
      await t.sandbox.close();
      vi.useRealTimers();
      await expect(request(t.eventsUrl, { dispatcher: agent, method: "POST" })).rejects.toThrow();
    } finally {
      vi.useRealTimers();
      await agent.close();
    }
  });

  it("lets a request that is still arriving finish, then closes its connection", async () => {
    const t = await startTestSandbox();
    const token = await t.token();
    // The token request must be over on the server's side too, so the one open request below is ours.
    await untilOpenRequests(t, 0);
    fakeTimers();
    const client = await halfSentEvent(t, token);
    const closing = t.sandbox.close();
    client.socket.write(client.rest);
    // Answered however long that takes on a busy machine: the grace period cannot pass while the clock stands still.
    await until(() => client.received.includes("\r\n\r\n"), "the answer arrives");
    expect(client.received).toMatch(/^HTTP\/1\.1 202 Accepted\r\n/);
    await untilOpenRequests(t, 0);
    expect(t.sandbox.stats().openConnections).toBe(1);
    // One sweep of idle connections, far inside the grace period, ends the answered one.
    vi.advanceTimersByTime(10);
    expect(t.sandbox.stats().openConnections).toBe(0);
    await closing;
    await client.ended;
  });

  it("cuts a request that is still arriving when the grace period ends, and only then resolves", async () => {
    const t = await startTestSandbox();
    const token = await t.token();
    await untilOpenRequests(t, 0);
    fakeTimers();
    const client = await halfSentEvent(t, token);
    const closing = t.sandbox.close();
    vi.advanceTimersByTime(CLOSE_GRACE_MS - 1);
    // Still open, so close() has not resolved: its server's close waits for every connection.
    expect(t.sandbox.stats().openConnections).toBe(1);
    vi.advanceTimersByTime(1);
    expect(t.sandbox.stats().openConnections).toBe(0);
    await closing;
    await client.ended;
    expect(client.received).toBe("");
  });
});

describe("latencyMs", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("holds every answer for exactly the added latency, on the sandbox's clock", async () => {
    const t = await startTestSandbox({ latencyMs: 30 });
    try {
      // Faked before the request arrives, so the answer can only come when the test moves the clock.
      fakeTimers();
      let answered: number | undefined;
      const pending = request(t.tokenUrl, {
        method: "POST",
        headers: { "content-type": FORM },
        body: tokenForm(),
      }).then((response) => {
        answered = response.statusCode;
        return response.body.text();
      });
      await untilOpenRequests(t, 1);
      await vi.advanceTimersByTimeAsync(29);
      expect(answered).toBeUndefined();
      expect(t.sandbox.stats().openRequests).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      vi.useRealTimers();
      await pending;
      expect(answered).toBe(200);
    } finally {
      vi.useRealTimers();
      await t.sandbox.close();
    }
  });

  it("refuses a latency beyond its cap, naming the option", () => {
    expect(() => resolveOptions({ latencyMs: 10_001 })).toThrow(
      /latencyMs must be a whole number from 0 to 10000/,
    );
  });
});
