import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A throwaway CA and a server certificate it signed, as PEM files in a fresh directory. */
export interface TestPki {
  readonly dir: string;
  /** The CA certificate: what a user would give in NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  readonly serverKey: string;
  readonly serverCert: string;
}

/**
 * Makes a CA and a P-256 server certificate for `hosts` (DNS names and IPs) with the openssl CLI: Node can make
 * keys but not certificates. Go (k6) needs the subjectAltName; the CA needs basicConstraints CA:TRUE.
 */
export async function makeTestPki(
  hosts: readonly string[],
  label = "event-harness test CA",
): Promise<TestPki> {
  const dir = await mkdtemp(path.join(tmpdir(), "eah-pki-"));
  const file = (name: string) => path.join(dir, name);
  const curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await run("openssl", [
    "req",
    "-x509",
    ...curve,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    `/CN=${label}`,
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await run("openssl", [
    "req",
    ...curve,
    "-keyout",
    file("server.key"),
    "-out",
    file("server.csr"),
    "-subj",
    `/CN=${hosts[0]}`,
  ]);
  const names = hosts.map((host) => (/^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`)).join(",");
  await writeFile(
    file("server.ext"),
    `subjectAltName=${names}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("server.pem"),
    "-days",
    "2",
    "-extfile",
    file("server.ext"),
  ]);
  return {
    dir,
    caFile: file("ca.pem"),
    serverKey: await readFile(file("server.key"), "utf8"),
    serverCert: await readFile(file("server.pem"), "utf8"),
  };
}
