import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { isIP } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { Connection } from "./connection.ts";
import { ConnectionError } from "./connection-error.ts";
import { displayProxy, proxyFor } from "./proxy-for.ts";
import { tlsOptions } from "./trusted-cas.ts";

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
        new ConnectionError(`the proxy ${shown} did not answer within ${timeoutMs} ms`, "TIMEOUT"),
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

/**
 * The options Node's http(s).request needs to reach `url` over `connection` (Pactum passes them on as its core
 * options): a tunnel through the proxy when one applies, and the CA and verification settings for TLS. A function
 * rather than an Agent, because Pactum deep-copies its core options and a copied Agent is no Agent.
 */
export function nodeRequestOptions(
  url: string,
  connection: Connection,
  timeoutMs: number,
): Record<string, unknown> {
  const options: Record<string, unknown> = { ...tlsOptions(connection) };
  const proxy = proxyFor(url, connection.proxy);
  if (proxy !== undefined) {
    options.createConnection = tunnelThrough(
      proxy,
      new URL(url).protocol === "https:",
      connection,
      timeoutMs,
    );
  }
  return options;
}
