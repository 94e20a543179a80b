import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { isIP } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { ConnectionError, formatDuration } from "../../core/index.ts";
import type { Connection } from "./connection.ts";
import { displayProxy, proxyFor } from "./proxy-for.ts";
import type { BodyCap } from "./response-cap.ts";
import { tlsOptions } from "./trusted-cas.ts";

// Every Agent has had addRequest since Node's first release; @types/node leaves it out (agent-base declares it so).
declare module "node:http" {
  interface Agent {
    addRequest(request: ClientRequest, options: RequestOptions): void;
  }
}

type Done = (error: Error | null, socket?: Socket) => void;

/** Node's request options as createConnection receives them (the target's host, port and TLS settings). */
interface TargetOptions {
  readonly host?: string | null;
  readonly hostname?: string | null;
  readonly port?: number | string | null;
  readonly servername?: string;
}

/**
 * A createConnection for Node's http(s).request that opens a CONNECT tunnel through `proxy` (Node's own http
 * client speaks CONNECT), then TLS to the target inside it for https. A proxy that cannot be reached or refuses
 * the tunnel fails the request with a ConnectionError that names the proxy without its user info.
 */
function tunnelThrough(proxy: string, secure: boolean, connection: Connection, timeoutMs: number) {
  const proxyUrl = new URL(proxy);
  const shown = displayProxy(proxy);
  const tls = tlsOptions(connection);
  return (options: TargetOptions, done: Done): undefined => {
    const host = (options.hostname ?? options.host ?? "localhost").replace(/^\[|\]$/g, "");
    const port = Number(options.port) || (secure ? 443 : 80);
    const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
    const headers: Record<string, string> = { host: authority };
    if (proxyUrl.username || proxyUrl.password) {
      const user = `${decodeURIComponent(proxyUrl.username)}:${decodeURIComponent(proxyUrl.password)}`;
      headers["proxy-authorization"] = `Basic ${Buffer.from(user).toString("base64")}`;
    }
    const send = proxyUrl.protocol === "https:" ? httpsRequest : httpRequest;
    const connect = send({
      host: proxyUrl.hostname.replace(/^\[|\]$/g, ""),
      port: proxyUrl.port || (proxyUrl.protocol === "https:" ? 443 : 80),
      method: "CONNECT",
      path: authority,
      headers,
      agent: false,
      ...(proxyUrl.protocol === "https:" ? tls : {}),
    });
    connect.setTimeout(timeoutMs, () =>
      connect.destroy(
        new ConnectionError(
          `the proxy ${shown} did not answer within ${formatDuration(timeoutMs)}`,
          "TIMEOUT",
        ),
      ),
    );
    connect.once("connect", (answer, socket) => {
      connect.setTimeout(0);
      if (answer.statusCode !== 200) {
        socket.destroy();
        done(
          new ConnectionError(
            `the proxy ${shown} refused the tunnel to ${authority} (${answer.statusCode})`,
            "PROXY_REFUSED",
          ),
        );
        return;
      }
      if (!secure) return done(null, socket);
      const servername = options.servername ?? (isIP(host) === 0 ? host : undefined);
      done(null, tlsConnect({ ...tls, socket, ...(servername === undefined ? {} : { servername }) }));
    });
    connect.once("error", (error: Error & { code?: string }) => {
      done(
        error instanceof ConnectionError
          ? error
          : new ConnectionError(
              `the proxy ${shown} could not be reached (${error.code ?? error.message})`,
              "PROXY_UNREACHABLE",
            ),
      );
    });
    connect.end();
    return undefined;
  };
}

/** Ends `request` as soon as its response body passes `cap`; the sender then reports the cap, not a reset. */
function capBody(request: ClientRequest, cap: BodyCap): void {
  request.once("response", (response: IncomingMessage) => {
    response.on("data", (chunk: Buffer) => {
      const exceeded = cap.add(chunk);
      if (exceeded !== undefined) request.destroy(exceeded);
    });
  });
}

/**
 * The options Node's http(s).request needs to reach `url` over `connection` (Pactum passes them on as its core
 * options): an Agent of its own for this one request (so `cap` counts this response alone; no connection is kept
 * alive), which tunnels through the proxy when one applies and ends the exchange when the response body passes
 * `cap`, and the CA and verification settings for TLS.
 */
export function nodeRequestOptions(
  url: string,
  connection: Connection,
  timeoutMs: number,
  cap: BodyCap,
): RequestOptions {
  const secure = new URL(url).protocol === "https:";
  const agent = secure ? new HttpsAgent() : new HttpAgent();
  const proxy = proxyFor(url, connection.proxy);
  if (proxy !== undefined) {
    const tunnel = tunnelThrough(proxy, secure, connection, timeoutMs);
    // @types/node wants a socket in the callback even with an error; Node's own callback takes the error alone.
    agent.createConnection = tunnel as HttpAgent["createConnection"];
  }
  const addRequest = agent.addRequest.bind(agent);
  agent.addRequest = (request, options) => {
    capBody(request, cap);
    addRequest(request, options);
  };
  return { ...tlsOptions(connection), agent };
}
