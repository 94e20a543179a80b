import type { Dispatcher } from "undici";
import type { Connection } from "./connection.ts";
import { tlsOptions } from "./trusted-cas.ts";

/** One dispatcher per connection for the life of the process, as undici's global dispatcher is. */
const dispatchers = new Map<string, Dispatcher>();

/**
 * The undici dispatcher for `connection`: EnvHttpProxyAgent with the proxies and NO_PROXY the CLI read (given
 * explicitly, so an in-process run with its own environment is honoured), and the same TLS settings on direct and
 * tunnelled connections.
 */
export async function undiciDispatcher(connection: Connection): Promise<Dispatcher> {
  const key = JSON.stringify(connection);
  const known = dispatchers.get(key);
  if (known !== undefined) return known;
  // Loaded here, not at the top: the CLI reads connection settings long before it sends anything.
  const { EnvHttpProxyAgent } = await import("undici");
  const tls = tlsOptions(connection);
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: connection.proxy.httpProxy,
    httpsProxy: connection.proxy.httpsProxy,
    noProxy: connection.proxy.noProxy,
    connect: tls,
    requestTls: tls,
  });
  dispatchers.set(key, dispatcher);
  return dispatcher;
}
