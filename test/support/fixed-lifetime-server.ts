import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { bearerEventsApi, readBody, sendJson } from "./bearer-events-api.ts";
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

/** Starts one on 127.0.0.1, port 0, for one client; close() also drops every connection it still holds. */
export async function startFixedLifetimeServer(options: {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly expiresIn: number;
  /**
   * What the token response says instead of expires_in, for a target that announces its lifetime oddly: a string
   * ("300"), a fraction (0.5), zero. The tokens still last `expiresIn`.
   */
  readonly announcedExpiresIn?: unknown;
}): Promise<FixedLifetimeServer> {
  /** Token → epoch ms of its `exp`. */
  const tokens = new Map<string, number>();
  const eventsApi = bearerEventsApi({
    verify: async (token) => {
      const exp = tokens.get(token);
      if (exp === undefined) return "unknown token";
      return Date.now() >= exp ? "token expired" : undefined;
    },
  });
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/api/")) {
      eventsApi(req, res, req.url.slice("/api".length));
      return;
    }
    readBody(req).then(
      (body) => {
        if (req.method === "POST" && req.url === "/auth/oauth/token") {
          const form = new URLSearchParams(body.text);
          if (
            form.get("client_id") !== options.clientId ||
            form.get("client_secret") !== options.clientSecret
          ) {
            sendJson(res, 401, { error: "invalid_client" });
            return;
          }
          const token = randomBytes(32).toString("base64url");
          tokens.set(token, (Math.floor(Date.now() / 1000) + options.expiresIn) * 1000);
          sendJson(
            res,
            200,
            {
              access_token: token,
              expires_in: "announcedExpiresIn" in options ? options.announcedExpiresIn : options.expiresIn,
              token_type: "Bearer",
            },
            { "cache-control": "no-store", pragma: "no-cache" },
          );
          return;
        }
        sendJson(res, 404, {});
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
