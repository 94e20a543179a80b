import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { Socket } from "node:net";

/** What the other origin received: everything a followed redirect would have handed it. */
export interface CaughtRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The path and query every Location carries; no output of the harness may show them. */
export const LOCATION_PATH_MARKER = "/collect/location-path-marker?session=location-query-marker";

export interface RedirectTargetOptions {
  /** The redirect status (a 307 or 308 keeps the method and body). */
  readonly status?: number;
  /** Which endpoints redirect: the token endpoint (after `honestTokens` real answers), events, the sandbox's admin endpoint. */
  readonly redirect: readonly ("token" | "events" | "admin")[];
  /** Token requests answered with a real token before the token endpoint starts redirecting. */
  readonly honestTokens?: number;
}

/**
 * A target (token endpoint `…/auth/oauth/token`, events `…/api/events`) that redirects to ANOTHER loopback server,
 * on another port of the same host: the one case an HTTP client's cross-host header stripping does not cover.
 */
export interface RedirectTarget {
  /** The redirecting target's origin. */
  readonly url: string;
  /** The other server's origin, as a redirect reason must name it. */
  readonly otherOrigin: string;
  /** Every request the other server received. */
  readonly caught: readonly CaughtRequest[];
  /** Requests the redirecting target itself answered with a redirect. */
  readonly redirected: () => number;
  close(): Promise<void>;
}

const TOKEN_LIFETIME_S = 300;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // A test request is a few hundred bytes; a bound keeps a runaway client from filling the test's memory.
    if (size > 64 * 1024) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify(body));
}

async function listen(server: Server, sockets: Set<Socket>): Promise<string> {
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}

/** Starts both servers on 127.0.0.1, port 0; close() drops every connection either still holds. */
export async function startRedirectTarget(options: RedirectTargetOptions): Promise<RedirectTarget> {
  const status = options.status ?? 307;
  const caught: CaughtRequest[] = [];
  const sockets = new Set<Socket>();
  const issued = new Set<string>();
  let tokenRequests = 0;
  let redirected = 0;

  // The other origin answers as a target would, so a client that follows sees success.
  const other = createServer(async (req, res) => {
    const body = await readBody(req);
    caught.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    if (req.url?.includes("token") === true)
      json(res, 200, { access_token: "caught-token", token_type: "Bearer", expires_in: TOKEN_LIFETIME_S });
    else json(res, 201, { status: "accepted" });
  });
  const otherOrigin = await listen(other, sockets);

  const front = createServer(async (req, res) => {
    const path = req.url ?? "";
    await readBody(req);
    const redirect = (endpoint: string) => {
      redirected += 1;
      res.writeHead(status, {
        location: `${otherOrigin}/${endpoint}${LOCATION_PATH_MARKER}`,
        connection: "close",
      });
      res.end();
    };
    if (path.endsWith("/oauth/token")) {
      tokenRequests += 1;
      if (options.redirect.includes("token") && tokenRequests > (options.honestTokens ?? 0))
        return redirect("token");
      const token = `honest-token-${tokenRequests}-${Math.random().toString(36).slice(2)}`;
      issued.add(token);
      return json(res, 200, { access_token: token, token_type: "Bearer", expires_in: TOKEN_LIFETIME_S });
    }
    if (path.endsWith("/events")) {
      if (options.redirect.includes("events")) return redirect("events");
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (bearer === undefined || !issued.has(bearer)) {
        res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"', connection: "close" });
        return res.end();
      }
      return json(res, 201, { status: "accepted" });
    }
    if (path.includes("/admin/") && options.redirect.includes("admin")) return redirect("admin");
    json(res, 404, { error: "not_found" });
  });
  const url = await listen(front, sockets);

  return {
    url,
    otherOrigin,
    caught,
    redirected: () => redirected,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise((resolve) => front.close(resolve)),
        new Promise((resolve) => other.close(resolve)),
      ]);
    },
  };
}
