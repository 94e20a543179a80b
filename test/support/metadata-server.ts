import { createServer } from "node:http";
import { type Loopback, listenOnLoopback } from "./loopback.ts";

/**
 * An authorization server whose OpenID Connect metadata says what a test writes (built from its own base URL, as its
 * issuer), with a token endpoint at `/token` that issues a token to anyone; every other path is 404, the way a wrong
 * --token-url meets a real server.
 */
export async function startMetadataServer(
  metadata: (base: string) => Record<string, unknown>,
): Promise<Loopback> {
  let base = "";
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method === "GET" && path === "/.well-known/openid-configuration") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ issuer: base, ...metadata(base) }));
      } else if (req.method === "POST" && path?.startsWith("/token")) {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(
          JSON.stringify({ access_token: "metadata-server-token", token_type: "Bearer", expires_in: 60 }),
        );
      } else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end('{"error":"not_found"}');
      }
    });
  });
  const loopback = await listenOnLoopback(server);
  base = loopback.url;
  return loopback;
}
