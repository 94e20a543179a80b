import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback } from "./loopback.ts";

/**
 * An OAuth token endpoint and events API whose tokens expire a fixed time after issue, the way oidc-provider,
 * Keycloak and Hydra do (shared/notes/real-servers.md): `exp` is the issue second plus expires_in, and the API
 * refuses a token from `exp` on however busy it is, as jose's `exp` check does. Not the spec (rule 6: the lifetime
 * counts from the last use), so the harness must not call sliding expiry held against it.
 */
export interface FixedLifetimeServer {
  /** The `{auth_url}`: the token endpoint is `{authUrl}/oauth/token`. */
  readonly authUrl: string;
  /** The `{base_url}`: events are posted to `{baseUrl}/events`. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Request bodies are read up to this, then the rest discarded: the harness sends small forms and events. */
const MAX_BODY_BYTES = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Starts one on 127.0.0.1, port 0, for one client; close() also drops every connection it still holds. */
export async function startFixedLifetimeServer(options: {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly expiresIn: number;
}): Promise<FixedLifetimeServer> {
  /** Token → epoch ms of its `exp`. */
  const tokens = new Map<string, number>();
  const server = createServer((req, res) => {
    readBody(req).then(
      (body) => {
        if (req.method === "POST" && req.url === "/auth/oauth/token") {
          const form = new URLSearchParams(body);
          if (
            form.get("client_id") !== options.clientId ||
            form.get("client_secret") !== options.clientSecret
          ) {
            json(res, 401, { error: "invalid_client" });
            return;
          }
          const token = randomBytes(32).toString("base64url");
          tokens.set(token, (Math.floor(Date.now() / 1000) + options.expiresIn) * 1000);
          json(
            res,
            200,
            { access_token: token, expires_in: options.expiresIn, token_type: "Bearer" },
            { "cache-control": "no-store", pragma: "no-cache" },
          );
          return;
        }
        if (req.method === "POST" && req.url === "/api/events") {
          const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
          const exp = tokens.get(token);
          if (exp === undefined || Date.now() >= exp) {
            json(
              res,
              401,
              { Message: "Access to this resource is forbidden" },
              { "www-authenticate": "Bearer" },
            );
            return;
          }
          const ref = `evt-${randomBytes(6).toString("hex")}`;
          json(res, 202, { Message: `Your event (${ref}) was accepted for processing.`, EventRef: ref });
          return;
        }
        json(res, 404, {});
      },
      () => res.destroy(),
    );
  });
  const loopback = await listenOnLoopback(server);
  const origin = loopback.url;
  return {
    authUrl: `${origin}/auth`,
    baseUrl: `${origin}/api`,
    close: loopback.close,
  };
}
