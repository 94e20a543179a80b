import { createServer } from "node:http";
import { request } from "undici";
import { onTestFinished } from "vitest";
import type { Connection } from "../../../transport/connection/index.ts";
import { DIRECT, undiciDispatcher } from "../../../transport/connection/index.ts";
import { startCountingProxy } from "../../support/counting-proxy.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

/** A loopback server answering "ok", closed after the test. */
async function target(): Promise<URL> {
  const loopback = await listenOnLoopback(createServer((_request, response) => response.end("ok")));
  onTestFinished(() => loopback.close());
  return new URL(loopback.url);
}

describe("undiciDispatcher", () => {
  it("keeps one dispatcher per connection for the life of the process", async () => {
    const proxied: Connection = {
      insecure: false,
      proxy: { httpProxy: "http://127.0.0.1:9", httpsProxy: "", noProxy: "" },
    };
    expect(await undiciDispatcher(DIRECT)).toBe(await undiciDispatcher({ ...DIRECT }));
    expect(await undiciDispatcher(proxied)).not.toBe(await undiciDispatcher(DIRECT));
    expect(await undiciDispatcher({ ...DIRECT, insecure: true })).not.toBe(await undiciDispatcher(DIRECT));
  });

  it("sends through the proxy the connection names", async () => {
    const { port } = await target();
    const proxy = await startCountingProxy(["target.test"]);
    onTestFinished(() => proxy.close());
    const connection: Connection = {
      insecure: false,
      proxy: { httpProxy: proxy.url, httpsProxy: "", noProxy: "" },
    };
    const response = await request(`http://target.test:${port}/`, {
      dispatcher: await undiciDispatcher(connection),
    });
    expect(await response.body.text()).toBe("ok");
    expect([...proxy.forwarded]).toEqual([[`target.test:${port}`, 1]]);
  });

  it("goes around the proxy for a host NO_PROXY names", async () => {
    const { port } = await target();
    const proxy = await startCountingProxy(["127.0.0.1"]);
    onTestFinished(() => proxy.close());
    const connection: Connection = {
      insecure: false,
      proxy: { httpProxy: proxy.url, httpsProxy: proxy.url, noProxy: "127.0.0.1" },
    };
    const response = await request(`http://127.0.0.1:${port}/`, {
      dispatcher: await undiciDispatcher(connection),
    });
    expect(await response.body.text()).toBe("ok");
    expect(proxy.total()).toBe(0);
  });
});
