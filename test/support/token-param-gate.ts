import { createServer, request } from "node:http";
import { readBody } from "./bearer-events-api.ts";
import { listenOnLoopback } from "./loopback.ts";

/**
 * A front to a sandbox that, like a server with its own token parameter (an API key, a tenant), issues tokens only
 * to requests carrying `name=value`: every other request goes through unchanged. It counts what it saw, so a test
 * proves the value reached the wire while no file held it.
 */
export interface TokenParamGate {
  /** The `{auth_url}` to name: the token endpoint is `{authUrl}/oauth/token`. */
  readonly authUrl: string;
  /** The `{base_url}` to name. */
  readonly baseUrl: string;
  /** Token requests that carried the value, and those refused (without it, or with another value). */
  readonly seen: { carried: number; refused: number };
  close(): Promise<void>;
}

/** Starts one on 127.0.0.1, port 0, in front of a sandbox listening on `upstream` (its origin). */
export async function startTokenParamGate(options: {
  readonly upstream: string;
  readonly name: string;
  readonly value: string;
}): Promise<TokenParamGate> {
  const seen = { carried: 0, refused: 0 };
  const upstream = new URL(options.upstream);
  const server = createServer((req, res) => {
    readBody(req).then(
      (body) => {
        if (req.method === "POST" && req.url?.endsWith("/oauth/token")) {
          if (new URLSearchParams(body.text).get(options.name) !== options.value) {
            seen.refused += 1;
            res.writeHead(400, { "content-type": "application/json" });
            res.end(
              JSON.stringify({ error: "invalid_request", error_description: `${options.name} is wrong` }),
            );
            return;
          }
          seen.carried += 1;
        }
        const bytes = Buffer.from(body.text, "utf8");
        const headers = { ...req.headers, host: upstream.host, "content-length": String(bytes.length) };
        delete headers["transfer-encoding"];
        const forward = request(
          { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on("error", () => res.writeHead(502).end());
        forward.end(bytes);
      },
      () => res.writeHead(400).end(),
    );
  });
  const loopback = await listenOnLoopback(server);
  return { authUrl: `${loopback.url}/auth`, baseUrl: `${loopback.url}/api`, seen, close: loopback.close };
}
