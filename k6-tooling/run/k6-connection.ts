import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Connection } from "../../transport/connection/index.ts";

/** Go's default certificate directories on Linux (crypto/x509 root_linux.go), read when SSL_CERT_DIR is unset. */
const GO_DEFAULT_CERT_DIRS = ["/etc/ssl/certs", "/etc/pki/tls/certs"];

export interface K6Connection {
  /** Variables that give k6 the same proxy and CAs as the Node side. */
  readonly env: Readonly<Record<string, string>>;
  /** Removes the temporary CA directory, if one was made. */
  dispose(): Promise<void>;
}

/**
 * The proxy and CA settings for the k6 process. k6 is Go: it reads HTTPS_PROXY/HTTP_PROXY/NO_PROXY itself (and
 * never proxies loopback hosts), and trusts the system roots plus every file in the SSL_CERT_DIR directories. The
 * extra CA is added as a copy in a fresh directory appended to SSL_CERT_DIR (the default directories kept), so
 * the system roots stay trusted; SSL_CERT_FILE would replace the system bundle instead.
 */
export async function k6Connection(connection: Connection, parent: NodeJS.ProcessEnv): Promise<K6Connection> {
  const env: Record<string, string> = {};
  const { httpProxy, httpsProxy, noProxy } = connection.proxy;
  if (httpProxy) env.HTTP_PROXY = httpProxy;
  // Go uses HTTPS_PROXY alone for https; undici falls back to HTTP_PROXY: give k6 the proxy the Node side uses.
  if (httpsProxy || httpProxy) env.HTTPS_PROXY = httpsProxy || httpProxy;
  if (noProxy) env.NO_PROXY = noProxy;
  if (parent.SSL_CERT_FILE) env.SSL_CERT_FILE = parent.SSL_CERT_FILE;
  if (connection.caFile === undefined) {
    if (parent.SSL_CERT_DIR) env.SSL_CERT_DIR = parent.SSL_CERT_DIR;
    return { env, dispose: async () => {} };
  }
  const dir = await mkdtemp(path.join(tmpdir(), "event-harness-ca-"));
  await copyFile(connection.caFile, path.join(dir, "extra-ca.pem"));
  const dirs = parent.SSL_CERT_DIR ? parent.SSL_CERT_DIR.split(":") : GO_DEFAULT_CERT_DIRS;
  env.SSL_CERT_DIR = [...dirs, dir].join(":");
  return { env, dispose: () => rm(dir, { recursive: true, force: true }) };
}
