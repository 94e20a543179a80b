import { request as nodeRequest } from "node:http";
import { Readable } from "node:stream";
import { request as undiciRequest } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAIN_LIMIT_BYTES } from "../../sandbox/http-body.ts";
import type { TestSandbox } from "./support.ts";
import { startTestSandbox, tokenForm, validEvent } from "./support.ts";

let t: TestSandbox;
let token: string;
beforeAll(async () => {
  t = await startTestSandbox({});
  token = await t.token();
});
afterAll(() => t.sandbox.close());

/** Over the 64 KiB limit, and large enough that a client is still writing when the server decides. */
const SIZES = [70 * 1024, 1024 * 1024, 4 * 1024 * 1024, DRAIN_LIMIT_BYTES - 1024];

function bodyOf(size: number): string {
  return JSON.stringify(validEvent({ metadata: { blob: "x".repeat(size) } }));
}

/**
 * Node's own client, the one that saw EPIPE: sends the whole body at once and waits for the request to close,
 * recording the status and any socket error, also one that comes after the response.
 */
function postWithNode(url: string, headers: Record<string, string>, body: string, chunked: boolean) {
  return new Promise<{ status: number | undefined; error: string | undefined }>((resolve) => {
    let status: number | undefined;
    let error: string | undefined;
    const req = nodeRequest(url, {
      method: "POST",
      headers: chunked ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    req.on("response", (res) => {
      status = res.statusCode;
      res.resume();
    });
    req.on("error", (cause: NodeJS.ErrnoException) => {
      error = cause.code ?? cause.message;
    });
    req.on("close", () => resolve({ status, error }));
    req.end(body);
  });
}

describe("an oversized body gets its 413, whatever the client", () => {
  for (const size of SIZES) {
    it(`events: Node's http client, ${size} bytes, with and without Content-Length`, async () => {
      const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
      for (const chunked of [false, true]) {
        const answer = await postWithNode(t.eventsUrl, headers, bodyOf(size), chunked);
        expect(answer, `chunked ${chunked}`).toEqual({ status: 413, error: undefined });
      }
    });

    it(`events: undici, ${size} bytes, as a string and as a stream`, async () => {
      const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
      const body = bodyOf(size);
      const whole = await undiciRequest(t.eventsUrl, { method: "POST", headers, body });
      expect(whole.statusCode).toBe(413);
      expect(await whole.body.text()).toContain("too large");
      const streamed = await undiciRequest(t.eventsUrl, {
        method: "POST",
        headers,
        body: Readable.from([Buffer.from(body)]),
      });
      expect(streamed.statusCode).toBe(413);
      expect(await streamed.body.text()).toContain("too large");
    });
  }

  it("token endpoint: Node's http client and undici both get 413 for a 4 MiB form", async () => {
    const body = tokenForm({ padding: "x".repeat(4 * 1024 * 1024) });
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    expect(await postWithNode(t.tokenUrl, headers, body, false)).toEqual({ status: 413, error: undefined });
    const viaUndici = await undiciRequest(t.tokenUrl, { method: "POST", headers, body });
    expect(viaUndici.statusCode).toBe(413);
    expect(await viaUndici.body.text()).toContain("too large");
  });

  it("stays usable afterwards", async () => {
    expect((await t.postEvent(token, validEvent())).status).toBe(202);
    expect(t.sandbox.stats().internalErrors).toBe(0);
  });
});
