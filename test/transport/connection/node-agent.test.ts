import { rm } from "node:fs/promises";
import type { IncomingMessage, RequestOptions, Server } from "node:http";
import { createServer, request as httpRequest } from "node:http";
import { createServer as createHttpsServer, request as httpsRequest } from "node:https";
import { onTestFinished } from "vitest";
import { ConnectionError, ResponseTooLargeError } from "../../../core/index.ts";
import type { Connection } from "../../../transport/connection/index.ts";
import { BodyCap, DIRECT, nodeRequestOptions } from "../../../transport/connection/index.ts";
import { startCountingProxy } from "../../support/counting-proxy.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";
import { makeTestPki } from "../../support/test-ca.ts";

/** A GET of `url` with `options`: the status and body, or the error the request ended with. */
function get(url: string, options: RequestOptions): Promise<{ status: number; body: string }> {
  const send = url.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, options, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      response.once("error", reject);
    });
    request.once("error", reject);
    request.end();
  });
}

/** A loopback server answering every request with `body`, closed after the test. */
async function serve(body: string, server: Server = createServer()): Promise<string> {
  server.on("request", (_request, response) => response.end(body));
  const loopback = await listenOnLoopback(server);
  onTestFinished(() => loopback.close());
  return loopback.url;
}

function viaProxy(proxy: string): Connection {
  return { insecure: false, proxy: { httpProxy: proxy, httpsProxy: proxy, noProxy: "" } };
}

describe("nodeRequestOptions", () => {
  it("reaches a target directly with an agent of the request's own and TLS verification on", async () => {
    const url = await serve("hello");
    const options = nodeRequestOptions(url, DIRECT, 5_000, new BodyCap());
    expect((options as { rejectUnauthorized?: boolean }).rejectUnauthorized).toBe(true);
    expect(options.agent).not.toBe(nodeRequestOptions(url, DIRECT, 5_000, new BodyCap()).agent);
    expect(await get(`${url}/x`, options)).toEqual({ status: 200, body: "hello" });
  });

  it("ends the exchange once the response body passes the cap, long before the body ends", async () => {
    // 64 MiB at most, 16 KiB at a time as the client takes them: only a client that stops reading ends it early.
    let written = 0;
    const endless = createServer((_request, response) => {
      const chunk = Buffer.alloc(16 * 1024, "x");
      const more = () => {
        while (written < 64 * 1024 * 1024 && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", more);
        }
        response.end();
      };
      more();
    });
    const loopback = await listenOnLoopback(endless);
    onTestFinished(() => loopback.close());
    const cap = new BodyCap(1024);
    const attempt = get(loopback.url, nodeRequestOptions(loopback.url, DIRECT, 5_000, cap));
    await expect(attempt).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(cap.exceeded?.limitBytes).toBe(1024);
    expect(written).toBeLessThan(64 * 1024 * 1024);
    // A body at the cap is read whole.
    const exact = await serve("y".repeat(1024));
    expect((await get(exact, nodeRequestOptions(exact, DIRECT, 5_000, new BodyCap(1024)))).body).toHaveLength(
      1024,
    );
  });

  it("tunnels through the proxy with CONNECT, sending its user info as Basic credentials", async () => {
    const target = new URL(await serve("through"));
    const proxy = await startCountingProxy(["target.test"]);
    onTestFinished(() => proxy.close());
    const proxyUrl = new URL(proxy.url);
    proxyUrl.username = "proxy-user";
    proxyUrl.password = "p%40ss:word";
    const url = `http://target.test:${target.port}/x`;
    const options = nodeRequestOptions(url, viaProxy(proxyUrl.href), 5_000, new BodyCap());
    expect(await get(url, options)).toEqual({ status: 200, body: "through" });
    expect([...proxy.forwarded]).toEqual([[`target.test:${target.port}`, 1]]);
    const [authorization] = proxy.authorizations;
    expect(authorization?.startsWith("Basic ")).toBe(true);
    expect(Buffer.from(authorization?.slice(6) ?? "", "base64").toString()).toBe("proxy-user:p@ss:word");
  });

  it("says plainly, without the proxy's password, when the proxy refuses the tunnel or cannot be reached", async () => {
    const target = new URL(await serve("never"));
    const proxy = await startCountingProxy(["allowed.test"]);
    onTestFinished(() => proxy.close());
    const withPassword = proxy.url.replace("http://", "http://user:hunter2-secret@");
    const url = `http://refused.test:${target.port}/`;
    const refused = get(url, nodeRequestOptions(url, viaProxy(withPassword), 5_000, new BodyCap()));
    await expect(refused).rejects.toBeInstanceOf(ConnectionError);
    await expect(refused).rejects.toMatchObject({
      reason: "PROXY_REFUSED",
      message: `the proxy ${proxy.url} refused the tunnel to refused.test:${target.port} (403)`,
    });

    await proxy.close();
    const unreachable = get(url, nodeRequestOptions(url, viaProxy(withPassword), 5_000, new BodyCap()));
    await expect(unreachable).rejects.toMatchObject({ reason: "PROXY_UNREACHABLE" });
    await expect(unreachable).rejects.toThrow(/could not be reached \(ECONNREFUSED\)/);
    await expect(unreachable).rejects.not.toThrow(/hunter2/);
  });

  it("brackets an IPv6 target in the CONNECT request", async () => {
    const proxy = await startCountingProxy(["::1"]);
    onTestFinished(() => proxy.close());
    const url = "http://[::1]:9/";
    // The proxy reaches the IPv6 name at 127.0.0.1, where nothing listens on port 9: only the tunnel is asked for.
    await get(url, nodeRequestOptions(url, viaProxy(proxy.url), 5_000, new BodyCap())).catch(() => undefined);
    expect([...proxy.forwarded.keys()]).toEqual(["[::1]:9"]);
  });

  it("speaks TLS to the target inside the tunnel, verifying its name against the CA the user gave", async () => {
    const pki = await makeTestPki(["target.test"]);
    onTestFinished(() => rm(pki.dir, { recursive: true, force: true }));
    const target = new URL(
      await serve(
        "secure",
        createHttpsServer({ key: pki.serverKey, cert: pki.serverCert }) as unknown as Server,
      ),
    );
    const proxy = await startCountingProxy(["target.test", "other.test"]);
    onTestFinished(() => proxy.close());
    const connection: Connection = { ...viaProxy(proxy.url), caFile: pki.caFile };
    const url = `https://target.test:${target.port}/`;
    expect(await get(url, nodeRequestOptions(url, connection, 5_000, new BodyCap()))).toEqual({
      status: 200,
      body: "secure",
    });
    // The same certificate under another name is refused: the tunnel's TLS checks the host.
    const other = `https://other.test:${target.port}/`;
    await expect(
      get(other, nodeRequestOptions(other, connection, 5_000, new BodyCap())),
    ).rejects.toMatchObject({
      code: "ERR_TLS_CERT_ALTNAME_INVALID",
    });
  });
});
