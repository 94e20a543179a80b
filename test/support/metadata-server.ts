import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { listenOnLoopback } from "./loopback.ts";

/**
 * An issuer's metadata endpoint of our own, to misbehave in exactly one way at a time: it serves whatever document
 * `document` returns for the n-th read (0-based), so a test decides the token endpoint per read: on another scheme
 * (a downgrade), on another origin, or changing between reads.
 */
export interface MetadataServerOptions {
  /** The n-th read's metadata for `issuer` (the server's own URL). */
  readonly document: (read: number, issuer: string) => Record<string, unknown>;
  /** A token endpoint at `/token` that issues a token to anyone, the way a wrong --token-url meets a real server. */
  readonly tokens?: boolean;
  /** Serve it over TLS with this certificate (see test-ca.ts); plain http otherwise. */
  readonly tls?: { readonly key: string; readonly cert: string };
}

export interface MetadataServer {
  /** The issuer: the server's origin, https when it serves TLS. */
  readonly issuer: string;
  /** Metadata documents served so far. */
  reads(): number;
  close(): Promise<void>;
}

/** Metadata naming `tokenEndpoint` for `issuer`, with the methods the harness speaks. */
export function metadataFor(
  issuer: string,
  tokenEndpoint: string,
  methods: readonly string[] = ["client_secret_post", "client_secret_basic"],
): Record<string, unknown> {
  return {
    issuer,
    token_endpoint: tokenEndpoint,
    grant_types_supported: ["client_credentials"],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: methods,
  };
}

/** Starts it on 127.0.0.1, port 0: GET of either well-known path gets the next document, anything else 404. */
export async function startMetadataServer(options: MetadataServerOptions): Promise<MetadataServer> {
  let reads = 0;
  let issuer = "";
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (options.tokens === true && req.method === "POST" && req.url?.startsWith("/token")) {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(
        JSON.stringify({ access_token: "metadata-server-token", token_type: "Bearer", expires_in: 60 }),
      );
      return;
    }
    if (req.method !== "GET" || !req.url?.includes("/.well-known/")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
      return;
    }
    const body = JSON.stringify(options.document(reads, issuer));
    reads += 1;
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  };
  const server =
    options.tls === undefined ? createHttpServer(handle) : createHttpsServer(options.tls, handle);
  const loopback = await listenOnLoopback(server);
  issuer = options.tls === undefined ? loopback.url : loopback.url.replace(/^http:/, "https:");
  return { issuer, reads: () => reads, close: () => loopback.close() };
}
