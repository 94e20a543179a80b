import { rootCertificates } from "node:tls";
import { ConnectionError } from "../../core/index.ts";
import { readInputFileSync } from "../input-file.ts";
import type { Connection } from "./connection.ts";

const cache = new Map<string, readonly string[]>();

/**
 * The CAs to trust when the connection names an extra CA file: Node's roots plus the file, as NODE_EXTRA_CA_CERTS
 * does at start-up (read here too, so the setting also holds when it reached the harness only through its own
 * environment, e.g. a run in-process). Undefined when Node's default store already trusts the file, or none is named.
 */
export function trustedCas(connection: Connection): readonly string[] | undefined {
  const file = connection.caFile;
  if (file === undefined) return undefined;
  let cas = cache.get(file);
  if (cas === undefined) {
    const reading = readInputFileSync(file);
    if (!reading.ok) {
      throw new ConnectionError(
        `cannot read the CA file ${file} (NODE_EXTRA_CA_CERTS): ${reading.problem}`,
        "CA_FILE",
      );
    }
    const pem = reading.text;
    if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
      throw new ConnectionError(
        `the CA file ${file} (NODE_EXTRA_CA_CERTS) holds no PEM certificate`,
        "CA_FILE",
      );
    }
    cas = Object.freeze([...rootCertificates, pem]);
    cache.set(file, cas);
  }
  // Node loaded this very file at start-up: its own store (system CAs too, when asked for) already holds it.
  return process.env.NODE_EXTRA_CA_CERTS === file ? undefined : cas;
}

/** The TLS options of every connection to the target (Node's tls.connect options). */
export function tlsOptions(connection: Connection): { ca?: string[]; rejectUnauthorized: boolean } {
  const ca = trustedCas(connection);
  return { ...(ca === undefined ? {} : { ca: [...ca] }), rejectUnauthorized: !connection.insecure };
}
