import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import { type Loopback, listenOnLoopback } from "./loopback.ts";

/** Loopback servers that never give a usable answer, each the way a broken deployment fails. */
export const HOSTILE_KINDS = [
  "never-answers",
  "headers-only",
  "trickle",
  "reset",
  "accept-then-close",
  "endless-body",
  "nested-arrays",
  "html-page",
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

/** 1 MiB less one byte of `[[[…]]]`: within the body cap, and JSON that would take some 30 MB once parsed. */
const NESTED_ARRAYS = `${"[".repeat(512 * 1024 - 1)}${"]".repeat(512 * 1024 - 1)}`;

/**
 * A single-sign-on page as a misconfigured gateway serves it for every path: long, with markup, a script and an
 * escape character a terminal would obey.
 */
export const HTML_PAGE = `<!DOCTYPE html>\n<html lang="en"><head><title>Acme SSO \u2014 Sign in</title><script>window.location="/login"</script></head>\n<body>\u001b[2J<h1>Sign in to continue</h1>${"<p>Your session has expired. Please sign in again.</p>".repeat(80)}</body></html>\n`;

export interface HostileOptions {
  /**
   * A token endpoint that works: a POST to a path ending in /token gets a well-formed token response with this
   * expires_in, so the checks reach the misbehaving answers (or the lifetime they announce).
   */
  readonly tokens?: { readonly expiresIn: number };
}

/** The access token a hostile server with working tokens issues: opaque, so it passes no signature check. */
export const HOSTILE_ACCESS_TOKEN = "hostile-opaque-access-token-5d0c1f3e9a7b";

function tokenResponse(expiresIn: number): string {
  return JSON.stringify({
    access_token: HOSTILE_ACCESS_TOKEN,
    expires_in: expiresIn,
    refresh_expires_in: 0,
    token_type: "Bearer",
    "not-before-policy": 0,
    scope: "profile email",
  });
}

export type HostileServer = Loopback;

function httpServer(kind: Exclude<HostileKind, "accept-then-close">, options: HostileOptions): HttpServer {
  return createHttpServer((req, res) => {
    const { tokens } = options;
    if (tokens !== undefined && req.method === "POST" && req.url?.endsWith("/token")) {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(tokenResponse(tokens.expiresIn));
      });
      return;
    }
    switch (kind) {
      case "never-answers":
        return;
      case "headers-only":
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders();
        return;
      case "trickle": {
        // One byte a second, forever: every idle timeout is satisfied, only a whole-exchange deadline ends it.
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
        const timer = setInterval(() => res.write(" "), 1_000);
        res.on("close", () => clearInterval(timer));
        return;
      }
      case "reset":
        req.socket.resetAndDestroy();
        return;
      case "endless-body": {
        // As fast as the client reads, forever: the deadline would end it, but only after it filled memory.
        res.writeHead(200, { "content-type": "application/json" });
        res.write("[");
        const chunk = Buffer.alloc(64 * 1024, " ");
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on("drain", pump);
        pump();
        return;
      }
      case "html-page":
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(HTML_PAGE);
        });
        return;
      case "nested-arrays":
        // A complete, well-formed 200 every time: only what parsing it would cost is hostile.
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(NESTED_ARRAYS);
        });
        return;
    }
  });
}

/** Starts one on 127.0.0.1, port 0; close() also drops every connection the server still holds. */
export async function startHostileServer(
  kind: HostileKind,
  options: HostileOptions = {},
): Promise<HostileServer> {
  const server: HttpServer | NetServer =
    kind === "accept-then-close" ? createNetServer((socket) => socket.end()) : httpServer(kind, options);
  return listenOnLoopback(server);
}
