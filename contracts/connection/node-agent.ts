import type { Agent, ClientRequest } from "node:http";
import type { HttpsProxyAgent } from "https-proxy-agent";

type AgentConnectOpts = Parameters<HttpsProxyAgent<string>["connect"]>[1];

import type { Connection } from "./connection.ts";
import { ConnectionError } from "./connection-error.ts";
import { displayProxy, proxyFor } from "./proxy-for.ts";
import { tlsOptions } from "./trusted-cas.ts";

/**
 * Tunnels through the proxy with CONNECT (http and https targets alike). Unlike its parent it fails the request
 * when the proxy cannot be reached or refuses the tunnel, instead of handing the proxy's answer over as the
 * target's.
 */
function tunnelAgentClass(Base: typeof HttpsProxyAgent) {
  return class TunnelAgent extends Base<string> {
    readonly #shown: string;

    constructor(proxy: string) {
      super(proxy, { keepAlive: true });
      this.#shown = displayProxy(proxy);
    }

    override async connect(req: ClientRequest, opts: AgentConnectOpts) {
      let status: number | undefined;
      req.once("proxyConnect", (answer: { statusCode?: number }) => {
        status = answer.statusCode;
      });
      let socket: Awaited<ReturnType<HttpsProxyAgent<string>["connect"]>>;
      try {
        socket = await super.connect(req, opts);
      } catch (error) {
        if (error instanceof Error && "code" in error && /^ERR_TLS|CERT|SSL/.test(String(error.code)))
          throw error;
        const code = (error as { code?: string }).code ?? "failed";
        throw new ConnectionError(
          `the proxy ${this.#shown} could not be reached (${code})`,
          "PROXY_UNREACHABLE",
        );
      }
      if (status !== 200) {
        socket.destroy();
        throw new ConnectionError(
          `the proxy ${this.#shown} refused the tunnel to ${opts.host}:${opts.port} (${status ?? "no answer"})`,
          "PROXY_REFUSED",
        );
      }
      return socket;
    }
  };
}

let TunnelAgent: ReturnType<typeof tunnelAgentClass> | undefined;
const agents = new Map<string, Agent>();

/**
 * The options Node's http(s).request needs to reach `url` over `connection` (Pactum passes them on as its core
 * options): the proxy tunnel when one applies, and the CA and verification settings for TLS.
 */
export async function nodeRequestOptions(
  url: string,
  connection: Connection,
): Promise<Record<string, unknown>> {
  const options: Record<string, unknown> = { ...tlsOptions(connection) };
  const proxy = proxyFor(url, connection.proxy);
  if (proxy !== undefined) {
    let agent = agents.get(proxy);
    if (agent === undefined) {
      // Loaded on first use: most runs need no proxy.
      TunnelAgent ??= tunnelAgentClass((await import("https-proxy-agent")).HttpsProxyAgent);
      agent = new TunnelAgent(proxy);
      agents.set(proxy, agent);
    }
    options.agent = agent;
  }
  return options;
}
