import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import { onTestFinished } from "vitest";
import {
  freeLoopbackPort,
  readMetrics,
  resume,
  waitUntilPaused,
} from "../../../k6-tooling/run/k6-control.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

/** A stand-in for k6's REST API: `answer` decides each response; every request is kept. Closed after the test. */
async function k6Api(
  answer: (seen: Seen, index: number) => [number, string],
): Promise<{ address: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const one = {
        method: request.method ?? "",
        path: request.url ?? "",
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(one);
      const [status, body] = answer(one, seen.length - 1);
      response.writeHead(status, { "content-type": "application/json" }).end(body);
    });
  });
  const loopback = await listenOnLoopback(server);
  onTestFinished(() => loopback.close());
  return { address: new URL(loopback.url).host, seen };
}

/** k6's GET /v1/status body. */
const status = (code: number, paused: boolean) =>
  JSON.stringify({
    data: { type: "status", id: "default", attributes: { status: code, paused, vus: 2, running: false } },
  });

const never = new Promise<never>(() => {});
const open = () => new AbortController().signal;

describe("freeLoopbackPort", () => {
  it("gives a port on 127.0.0.1 that is free to bind", async () => {
    const port = await freeLoopbackPort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65536);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("waitUntilPaused", () => {
  it("asks until k6 has initialised its VUs and waits paused (not paused alone), past answers it cannot read", async () => {
    const api = await k6Api((_seen, index) =>
      index === 0 ? [503, "starting"] : index === 1 ? [200, status(1, true)] : [200, status(4, true)],
    );
    expect(await waitUntilPaused(api.address, never, 10_000, open())).toBe(true);
    expect(api.seen.map((one) => `${one.method} ${one.path}`)).toEqual(Array(3).fill("GET /v1/status"));
  });

  it("does not take a k6 initialised but not paused, and stops asking when the caller aborts", async () => {
    const api = await k6Api(() => [200, status(4, false)]);
    const stop = new AbortController();
    const waiting = waitUntilPaused(api.address, never, 10_000, stop.signal);
    // Two polls of a k6 that never pauses: then the caller gives up.
    await expect.poll(() => api.seen.length).toBeGreaterThanOrEqual(2);
    stop.abort();
    expect(await waiting).toBe(false);
  });

  it("gives up when k6 exits first, or the deadline has passed", async () => {
    const api = await k6Api(() => [200, status(1, false)]);
    expect(await waitUntilPaused(api.address, Promise.resolve(), 10_000, open())).toBe(false);
    expect(await waitUntilPaused(api.address, Promise.reject(new Error("exit 107")), 10_000, open())).toBe(
      false,
    );
    const before = api.seen.length;
    expect(await waitUntilPaused(api.address, never, 0, open())).toBe(false);
    expect(api.seen.length).toBe(before);
  });
});

describe("resume", () => {
  it("patches k6's status to not paused", async () => {
    const api = await k6Api(() => [200, status(5, false)]);
    await resume(api.address, open());
    const [patch] = api.seen;
    expect(patch?.method).toBe("PATCH");
    expect(patch?.path).toBe("/v1/status");
    expect(JSON.parse(patch?.body ?? "")).toEqual({
      data: { type: "status", id: "default", attributes: { paused: false } },
    });
  });

  it("throws with k6's answer when it refuses", async () => {
    const api = await k6Api(() => [400, '{"errors":[{"detail":"test not paused"}]}']);
    await expect(resume(api.address, open())).rejects.toThrow(
      `k6 at ${api.address} refused to resume: 400 {"errors":[{"detail":"test not paused"}]}`,
    );
  });
});

describe("readMetrics", () => {
  it("reads each named metric on its own, numbers only, leaving out what k6 has not seen", async () => {
    const api = await k6Api(({ path }) => {
      const name = decodeURIComponent(path.slice("/v1/metrics/".length));
      if (name === "events_accepted")
        return [
          200,
          JSON.stringify({ data: { id: name, attributes: { sample: { count: 42, rate: 8.4 } } } }),
        ];
      if (name === "http_req_duration{endpoint:events}")
        return [
          200,
          JSON.stringify({
            data: { id: name, attributes: { sample: { "p(95)": 12.5, avg: 3, label: "x" } } },
          }),
        ];
      if (name === "no_sample") return [200, JSON.stringify({ data: { id: name, attributes: {} } })];
      return [404, '{"errors":[{"title":"metric not found"}]}'];
    });
    const metrics = await readMetrics(
      api.address,
      ["events_accepted", "http_req_duration{endpoint:events}", "not_yet", "no_sample"],
      open(),
    );
    expect(Object.fromEntries(metrics)).toEqual({
      events_accepted: { count: 42, rate: 8.4 },
      "http_req_duration{endpoint:events}": { "p(95)": 12.5, avg: 3 },
    });
    // The sub-metric's name is one path segment, its braces and colon escaped.
    expect(api.seen.map((one) => one.path)).toContain("/v1/metrics/http_req_duration%7Bendpoint%3Aevents%7D");
  });

  it("throws when k6 answers anything but a metric or not found", async () => {
    const api = await k6Api(() => [500, "internal"]);
    await expect(readMetrics(api.address, ["events_accepted"], open())).rejects.toThrow(
      `k6 at ${api.address} answered 500`,
    );
    expect((await readMetrics(api.address, [], open())).size).toBe(0);
  });
});
