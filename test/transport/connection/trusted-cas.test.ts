import { writeFile } from "node:fs/promises";
import path from "node:path";
import { rootCertificates } from "node:tls";
import { onTestFinished } from "vitest";
import { ConnectionError } from "../../../core/index.ts";
import { DIRECT, tlsOptions, trustedCas } from "../../../transport/connection/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

/** A PEM block: trustedCas checks that the file holds one, the TLS layer checks what it says. */
const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

/** Sets NODE_EXTRA_CA_CERTS for the test, as the process started with it, and restores it after. */
function startedWith(caFile: string | undefined): void {
  const before = process.env.NODE_EXTRA_CA_CERTS;
  if (caFile === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
  else process.env.NODE_EXTRA_CA_CERTS = caFile;
  onTestFinished(() => {
    if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = before;
  });
}

describe("trustedCas", () => {
  it("trusts Node's roots and nothing more when no CA file is named", () => {
    expect(trustedCas(DIRECT)).toBeUndefined();
  });

  it("trusts Node's roots plus the named file", async ({ tmpDir }) => {
    startedWith(undefined);
    const caFile = path.join(tmpDir, "ca.pem");
    await writeFile(caFile, PEM);
    const cas = trustedCas({ ...DIRECT, caFile });
    expect(cas).toEqual([...rootCertificates, PEM]);
  });

  it("leaves the store alone when the process already loaded that very file at start-up", async ({
    tmpDir,
  }) => {
    const caFile = path.join(tmpDir, "ca.pem");
    await writeFile(caFile, PEM);
    startedWith(caFile);
    expect(trustedCas({ ...DIRECT, caFile })).toBeUndefined();
  });

  it("refuses a CA file it cannot read, or one with no certificate, with a ConnectionError", async ({
    tmpDir,
  }) => {
    startedWith(undefined);
    const missing = path.join(tmpDir, "missing.pem");
    expect(() => trustedCas({ ...DIRECT, caFile: missing })).toThrow(ConnectionError);
    expect(() => trustedCas({ ...DIRECT, caFile: missing })).toThrow(
      new RegExp(`^cannot read the CA file ${missing} \\(NODE_EXTRA_CA_CERTS\\): `),
    );
    const key = path.join(tmpDir, "key.pem");
    await writeFile(key, "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n");
    let error: unknown;
    try {
      trustedCas({ ...DIRECT, caFile: key });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ reason: "CA_FILE", code: "connection-failed" });
    expect((error as Error).message).toBe(
      `the CA file ${key} (NODE_EXTRA_CA_CERTS) holds no PEM certificate`,
    );
    // A directory is no CA file either.
    expect(() => trustedCas({ ...DIRECT, caFile: tmpDir })).toThrow(ConnectionError);
  });
});

describe("tlsOptions", () => {
  it("verifies certificates unless --insecure, with the extra CA when one is named", async ({ tmpDir }) => {
    startedWith(undefined);
    expect(tlsOptions(DIRECT)).toEqual({ rejectUnauthorized: true });
    expect(tlsOptions({ ...DIRECT, insecure: true })).toEqual({ rejectUnauthorized: false });
    const caFile = path.join(tmpDir, "ca.pem");
    await writeFile(caFile, PEM);
    const options = tlsOptions({ ...DIRECT, caFile });
    expect(options.rejectUnauthorized).toBe(true);
    expect(options.ca?.at(-1)).toBe(PEM);
    // A copy each time: a caller that changes its list cannot change the next one's.
    options.ca?.pop();
    expect(tlsOptions({ ...DIRECT, caFile }).ca?.at(-1)).toBe(PEM);
  });
});
