import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { send } from "../../../contracts/probe/send.ts";
import { TransportError } from "../../../core/index.ts";
import type { Connection } from "../../../transport/connection/index.ts";
import { DIRECT, MAX_RESPONSE_BODY_BYTES } from "../../../transport/connection/index.ts";
import type { CountingProxy } from "../../support/counting-proxy.ts";
import { startCountingProxy } from "../../support/counting-proxy.ts";
import type { HostileServer } from "../../support/hostile-server.ts";
import { startHostileServer } from "../../support/hostile-server.ts";

/** Far longer than reading 1 MiB over loopback ever takes: a request ended by the cap never sees it. */
const TIMEOUT_MS = 60_000;

let endless: HostileServer;
let nested: HostileServer;
let exact: Server;
let exactUrl: string;
let proxy: CountingProxy;

beforeAll(async () => {
  endless = await startHostileServer("endless-body");
  nested = await startHostileServer("nested-arrays");
  // A body of exactly the cap: the largest a target may send.
  exact = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(Buffer.alloc(MAX_RESPONSE_BODY_BYTES, "x"));
  });
  await new Promise<void>((resolve) => exact.listen(0, "127.0.0.1", resolve));
  exactUrl = `http://127.0.0.1:${(exact.address() as AddressInfo).port}`;
  proxy = await startCountingProxy(["127.0.0.1"]);
});
afterAll(async () => {
  await endless.close();
  await nested.close();
  await new Promise((resolve) => exact.close(resolve));
  await proxy.close();
});

async function failure(url: string, connection: Connection): Promise<TransportError> {
  const error = await send({ method: "GET", url, headers: {} }, TIMEOUT_MS, connection).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe("send caps the response body", () => {
  it("ends an endless body at 1 MiB, long before the deadline, as a transport error (ERROR, never FAIL)", async () => {
    const error = await failure(`${endless.url}/events`, DIRECT);
    expect(error.message).toBe("response body exceeded 1 MiB");
    expect(error.reason).toBe("TOO_LARGE");
  });

  it("caps a body that comes through a proxy's tunnel too", async () => {
    const before = proxy.total();
    const through: Connection = { ...DIRECT, proxy: { httpProxy: proxy.url, httpsProxy: "", noProxy: "" } };
    const error = await failure(`${endless.url}/events`, through);
    expect(error.message).toBe("response body exceeded 1 MiB");
    expect(proxy.total()).toBe(before + 1);
  });

  it("reads a body of exactly the cap whole", async () => {
    const response = await send({ method: "GET", url: exactUrl, headers: {} }, TIMEOUT_MS, DIRECT);
    expect(response.status).toBe(200);
    expect(response.text.length).toBe(MAX_RESPONSE_BODY_BYTES);
  });
});

describe("send caps the response's JSON shape", () => {
  it("ends 1 MiB of nested arrays at the depth cap, as a transport error, before Pactum parses it", async () => {
    const parse = vi.spyOn(JSON, "parse");
    try {
      const error = await failure(`${nested.url}/events`, DIRECT);
      expect(error.message).toBe("response JSON nests deeper than 64 levels");
      expect(error.reason).toBe("TOO_LARGE");
      const longest = Math.max(0, ...parse.mock.calls.map(([text]) => String(text).length));
      expect(longest).toBeLessThan(1024);
    } finally {
      parse.mockRestore();
    }
  });
});
