import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { DIRECT } from "../../../transport/connection/index.ts";
import {
  DiscoveryError,
  discoverServer,
  discoverTokenEndpoint,
  issuerCandidates,
  metadataUrls,
} from "../../../transport/discovery/index.ts";
import type { Loopback } from "../../support/loopback.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

const how = { connection: DIRECT, timeoutMs: 5_000 };

/** A server answering each path from a table (404 elsewhere), counting every request it gets. */
async function tableServer(
  answer: (
    base: string,
    path: string,
  ) => { status: number; body?: string; headers?: Record<string, string> } | undefined,
): Promise<Loopback & { readonly hits: string[] }> {
  const hits: string[] = [];
  let base = "";
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const found = answer(base, req.url ?? "");
    res.writeHead(found?.status ?? 404, { "content-type": "application/json", ...found?.headers });
    res.end(found?.body ?? "{}");
  });
  const loopback = await listenOnLoopback(server);
  base = loopback.url;
  return { ...loopback, hits };
}

const metadata = (issuer: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ issuer, token_endpoint: `${issuer}/token`, ...extra });

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe("metadataUrls", () => {
  it("appends OpenID Connect's path and inserts RFC 8414's before the issuer's path", () => {
    expect(metadataUrls("https://as.example/tenant/one/")).toEqual([
      "https://as.example/tenant/one/.well-known/openid-configuration",
      "https://as.example/.well-known/oauth-authorization-server/tenant/one",
    ]);
    expect(metadataUrls("https://as.example")).toEqual([
      "https://as.example/.well-known/openid-configuration",
      "https://as.example/.well-known/oauth-authorization-server",
    ]);
  });

  it("tries a URL's shorter paths down to its origin, a bounded number of them", () => {
    expect(issuerCandidates("https://as.example/a/b")).toEqual([
      "https://as.example/a/b",
      "https://as.example/a",
      "https://as.example",
    ]);
    expect(issuerCandidates("https://as.example/a/b/c/d/e/f")).toHaveLength(4);
  });
});

describe("discoverServer", () => {
  it("reads the sandbox's token endpoint and both client authentication methods", async () => {
    const found = await discoverServer(sandbox.authUrl, how);
    expect(found.tokenEndpoint).toBe(sandbox.tokenUrl);
    expect([...found.authMethods].sort()).toEqual(["client_secret_basic", "client_secret_post"]);
    expect(found.metadataUrl).toBe(`${sandbox.authUrl}/.well-known/openid-configuration`);
  });

  it("falls back to RFC 8414's inserted path and defaults the methods to client_secret_basic", async () => {
    const server = await tableServer((base, path) =>
      path === "/.well-known/oauth-authorization-server/tenant"
        ? { status: 200, body: metadata(`${base}/tenant`) }
        : undefined,
    );
    try {
      const found = await discoverServer(`${server.url}/tenant`, how);
      expect(found.tokenEndpoint).toBe(`${server.url}/tenant/token`);
      expect(found.authMethods).toEqual(["client_secret_basic"]);
      expect(server.hits).toEqual([
        "/tenant/.well-known/openid-configuration",
        "/.well-known/oauth-authorization-server/tenant",
      ]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ["names", (base: string) => `${base}/introspect`, (base: string) => `${base}/introspect`],
    ["ignores a malformed", () => "not a url", () => undefined],
    ["ignores a non-http", () => "ftp://as.example/introspect", () => undefined],
  ])("%s introspection_endpoint, the token endpoint found all the same", async (_, given, wanted) => {
    const server = await tableServer((base, path) =>
      path === "/.well-known/openid-configuration"
        ? { status: 200, body: metadata(base, { introspection_endpoint: given(base) }) }
        : undefined,
    );
    try {
      const found = await discoverServer(server.url, how);
      expect(found.tokenEndpoint).toBe(`${server.url}/token`);
      expect(found.introspectionEndpoint).toBe(wanted(server.url));
    } finally {
      await server.close();
    }
  });

  it("refuses metadata of another issuer, showing its text inert", async () => {
    const server = await tableServer(() => ({
      status: 200,
      body: metadata("https://evil.example/\u001b[31mx"),
    }));
    try {
      const error = await discoverServer(server.url, how).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DiscoveryError);
      expect((error as DiscoveryError).reachable).toBe(true);
      expect((error as Error).message).toContain(
        "metadata of another issuer ('https://evil.example/\\x1b[31mx",
      );
      expect((error as Error).message).not.toContain("\u001b");
    } finally {
      await server.close();
    }
  });

  it("names the invalid field of metadata that fails the schema", async () => {
    const server = await tableServer((base) => ({
      status: 200,
      body: JSON.stringify({ issuer: base, token_endpoint: "ftp://x/token" }),
    }));
    try {
      await expect(discoverServer(server.url, how)).rejects.toThrow(/token_endpoint: /);
    } finally {
      await server.close();
    }
  });

  it("follows no redirect", async () => {
    const elsewhere = await tableServer((base) => ({ status: 200, body: metadata(base) }));
    const server = await tableServer(() => ({
      status: 302,
      headers: { location: `${elsewhere.url}/.well-known/openid-configuration` },
    }));
    try {
      await expect(discoverServer(server.url, how)).rejects.toThrow(/302 with a redirect to .*not followed/);
      expect(elsewhere.hits).toEqual([]);
    } finally {
      await server.close();
      await elsewhere.close();
    }
  });

  it("stops reading a document past its cap", async () => {
    const server = await tableServer((base) => ({
      status: 200,
      body: metadata(base, { padding: "x".repeat(200_000) }),
    }));
    try {
      await expect(discoverServer(server.url, how)).rejects.toThrow(/exceeded 64 KiB/);
    } finally {
      await server.close();
    }
  });

  it("says when nothing answered at all", async () => {
    const server = await tableServer(() => undefined);
    const url = server.url;
    await server.close();
    const error = await discoverServer(url, how).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as DiscoveryError).reachable).toBe(false);
  });
});

describe("discoverTokenEndpoint", () => {
  it("finds the real token endpoint from a wrong address on the same server", async () => {
    expect(await discoverTokenEndpoint(`${sandbox.authUrl}/wrong/place`, how)).toBe(sandbox.tokenUrl);
  });

  it("is undefined for a server without metadata", async () => {
    const server = await tableServer(() => undefined);
    try {
      expect(await discoverTokenEndpoint(`${server.url}/a`, how)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
