import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { replyJson } from "../../sandbox/http-reply.ts";
import type { Route } from "../../sandbox/router.ts";
import { Router } from "../../sandbox/router.ts";

const ROUTES: readonly Route[] = [
  {
    path: "/api/events",
    methods: {
      GET: (_req, res) => replyJson(res, 200, '{"route":"list"}'),
      POST: (_req, res) => replyJson(res, 201, '{"route":"post"}'),
    },
  },
  {
    path: "/api/events",
    param: true,
    methods: { GET: (_req, res, param) => replyJson(res, 200, JSON.stringify({ route: "one", param })) },
  },
  {
    path: "/admin/clients",
    param: true,
    suffix: "/rotate",
    methods: { POST: (_req, res, param) => replyJson(res, 200, JSON.stringify({ route: "rotate", param })) },
  },
  {
    path: "/boom",
    methods: {
      GET: () => {
        throw new Error("sync failure");
      },
      POST: async () => {
        throw new Error("async failure");
      },
    },
  },
  {
    path: "/half",
    methods: {
      GET: (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
        throw new Error("after headers");
      },
    },
  },
];

/** A server of the router alone on a loopback port 0, closed after `use`, with the errors it reported. */
async function withRouter(use: (origin: string, errors: unknown[]) => Promise<void>): Promise<void> {
  const errors: unknown[] = [];
  const router = new Router(ROUTES, (error) => errors.push(error));
  const server = createServer((req, res) => router.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await use(`http://127.0.0.1:${port}`, errors);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function call(url: string, method: "GET" | "POST" | "HEAD" | "DELETE" = "GET") {
  const response = await request(url, { method });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

describe("Router", () => {
  it("dispatches by exact path and method, a query string left out of the match", async () => {
    await withRouter(async (origin) => {
      expect((await call(`${origin}/api/events`)).text).toBe('{"route":"list"}');
      expect((await call(`${origin}/api/events`, "POST")).status).toBe(201);
      expect((await call(`${origin}/api/events?limit=5&x=/y`)).text).toBe('{"route":"list"}');
    });
  });

  it("answers HEAD where GET is served, with no body", async () => {
    await withRouter(async (origin) => {
      const head = await call(`${origin}/api/events`, "HEAD");
      expect(head.status).toBe(200);
      expect(head.text).toBe("");
      expect(head.headers["content-type"]).toBe("application/json");
    });
  });

  it("answers 404 in production's shape for a path no route has", async () => {
    await withRouter(async (origin) => {
      for (const path of ["/", "/api", "/api/events/", "/API/events", "/api/eventsx"]) {
        const answer = await call(`${origin}${path}`);
        expect(answer.status, path).toBe(404);
        expect(JSON.parse(answer.text), path).toEqual({ Message: "No resource at this path" });
      }
    });
  });

  it("answers 405 with an Allow header listing the resource's methods, HEAD included (RFC 9110 §15.5.6)", async () => {
    await withRouter(async (origin) => {
      const answer = await call(`${origin}/api/events`, "DELETE");
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe("GET, POST, HEAD");
      expect(JSON.parse(answer.text)).toEqual({ Message: "Method not allowed on this resource" });
      const rotate = await call(`${origin}/admin/clients/shop/rotate`, "GET");
      expect(rotate.status).toBe(405);
      expect(rotate.headers.allow).toBe("POST");
    });
  });

  it("hands a parameterised route its last segment percent-decoded, between the prefix and the suffix", async () => {
    await withRouter(async (origin) => {
      expect(JSON.parse((await call(`${origin}/api/events/ev%201%2F2`)).text)).toEqual({
        route: "one",
        param: "ev 1/2",
      });
      expect(JSON.parse((await call(`${origin}/admin/clients/sh%C3%B6p/rotate`, "POST")).text)).toEqual({
        route: "rotate",
        param: "shöp",
      });
    });
  });

  it.each([
    ["an empty parameter", "/api/events/"],
    ["a parameter of two segments", "/api/events/a/b"],
    ["a broken percent escape", "/api/events/%E0%A4%A"],
    ["a missing suffix", "/admin/clients/shop"],
    ["an empty parameter before the suffix", "/admin/clients//rotate"],
  ])("answers 404 for %s", async (_what, path) => {
    await withRouter(async (origin) => {
      expect((await call(`${origin}${path}`, path.startsWith("/admin") ? "POST" : "GET")).status).toBe(404);
    });
  });

  it("turns a handler's throw or rejection into a 500 that closes the connection, and reports the error", async () => {
    await withRouter(async (origin, errors) => {
      const sync = await call(`${origin}/boom`);
      expect(sync.status).toBe(500);
      expect(sync.headers.connection).toBe("close");
      expect(JSON.parse(sync.text)).toEqual({ Message: "Internal server error" });
      const rejected = await call(`${origin}/boom`, "POST");
      expect(rejected.status).toBe(500);
      expect(errors.map((error) => (error as Error).message)).toEqual(["sync failure", "async failure"]);
      expect(sync.text).not.toContain("sync failure");
    });
  });

  it("cuts the connection when a handler fails after its headers went out, and keeps serving", async () => {
    await withRouter(async (origin, errors) => {
      await expect(call(`${origin}/half`)).rejects.toThrow();
      expect(errors.map((error) => (error as Error).message)).toEqual(["after headers"]);
      expect((await call(`${origin}/api/events`)).status).toBe(200);
    });
  });
});
