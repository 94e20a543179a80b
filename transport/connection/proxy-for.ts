import type { ProxySettings } from "./connection.ts";

const DEFAULT_PORTS: Readonly<Record<string, number>> = { "http:": 80, "https:": 443 };

interface NoProxyEntry {
  readonly hostname: string;
  readonly port: number;
}

function noProxyEntries(noProxy: string): NoProxyEntry[] {
  return noProxy
    .split(/[,\s]/)
    .filter(Boolean)
    .map((entry) => {
      const parsed = /^(.+):(\d+)$/.exec(entry);
      return {
        hostname: (parsed?.[1] ?? entry).replace(/^\*?\./, "").toLowerCase(),
        port: parsed?.[2] === undefined ? 0 : Number.parseInt(parsed[2], 10),
      };
    });
}

/**
 * The proxy a request to `url` goes through, or undefined for a direct connection. NO_PROXY is matched exactly as
 * undici's EnvHttpProxyAgent matches it, so Pactum's requests and undici's take the same way.
 */
export function proxyFor(url: string | URL, proxy: ProxySettings): string | undefined {
  const { protocol, host, port } = new URL(url);
  const chosen = protocol === "https:" ? proxy.httpsProxy || proxy.httpProxy : proxy.httpProxy;
  if (!chosen) return undefined;
  const entries = noProxyEntries(proxy.noProxy);
  if (proxy.noProxy.trim() === "*") return undefined;
  // Brackets of an IPv6 host stay, as in undici.
  const hostname = host.replace(/:\d*$/, "").toLowerCase();
  const portNumber = Number.parseInt(port, 10) || DEFAULT_PORTS[protocol] || 0;
  for (const entry of entries) {
    if (entry.port && entry.port !== portNumber) continue;
    if (hostname === entry.hostname || hostname.endsWith(`.${entry.hostname}`)) return undefined;
  }
  return chosen;
}

/** A proxy address safe to print: no user name or password. */
export function displayProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return "(unparsable proxy address)";
  }
}
