import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import { tokenCommand } from "../../../cli/commands/token.ts";
import type { MetadataServer } from "../../support/metadata-server.ts";
import { metadataFor, startMetadataServer } from "../../support/metadata-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import type { TestPki } from "../../support/test-ca.ts";
import { makeTestPki } from "../../support/test-ca.ts";
import type { TokenTrap } from "../../support/token-trap.ts";
import { startTokenTrap } from "../../support/token-trap.ts";

const SECRET = "downgrade-test-secret-3f9e1c";

let pki: TestPki;
let trap: TokenTrap;
let downgrading: MetadataServer;
let work: string;
beforeAll(async () => {
  pki = await makeTestPki(["127.0.0.1"]);
  trap = await startTokenTrap();
  // An https issuer whose metadata names a token endpoint over plain http: Keycloak behind a TLS proxy without
  // forwarded headers publishes exactly that.
  downgrading = await startMetadataServer({
    tls: { key: pki.serverKey, cert: pki.serverCert },
    document: (_read, issuer) => metadataFor(issuer, trap.tokenUrl),
  });
  work = await mkdtemp(path.join(tmpdir(), "eah-downgrade-"));
});
afterAll(async () => {
  await downgrading.close();
  await trap.close();
  await rm(pki.dir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const env = () => ({ EVENT_API_CLIENT_SECRET: SECRET, NODE_EXTRA_CA_CERTS: pki.caFile });
const target = (issuer: string) => [
  "--issuer",
  issuer,
  "--base-url",
  "http://127.0.0.1:9/api",
  "--client-id",
  "shop-1",
];

describe("an https issuer whose metadata names an http token endpoint", () => {
  it.each([
    ["contract", contractCommand, ["--report-dir", "contract"]],
    ["token", tokenCommand, []],
    ["run", runCommand, ["--report-dir", "run"]],
  ] as const)(
    "%s: refused with exit 2 naming the endpoint, before any token request",
    async (_name, command, extra) => {
      const reportArgs = extra.map((arg) => (arg === extra[1] ? path.join(work, arg) : arg));
      const run = await runInProcess(command, [...target(downgrading.issuer), ...reportArgs], env());
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`the token endpoint ${trap.tokenUrl}`);
      expect(run.stderr).toContain("plain http");
      expect(run.stderr).toContain(`--token-url ${trap.tokenUrl}`);
      expect(trap.requests).toEqual([]);
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
      if (reportArgs[1] !== undefined) {
        // Nothing was tested, so nothing is reported.
        expect(await readdir(reportArgs[1]).catch(() => [])).toEqual([]);
      }
    },
  );
});

describe("a wrong https --token-url on a server whose metadata names an http endpoint", () => {
  it("is not told to downgrade: no --token-url over http is suggested", async () => {
    const run = await runInProcess(
      tokenCommand,
      ["--token-url", `${downgrading.issuer}/wrong/token`, ...target(downgrading.issuer).slice(2)],
      env(),
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain("is not a token endpoint");
    expect(run.stderr).not.toContain("did you mean");
    expect(trap.requests).toEqual([]);
  });
});

describe("issuer metadata that cannot be read at all", () => {
  it.each([
    ["contract", contractCommand],
    ["token", tokenCommand],
  ] as const)(
    "%s: an issuer nobody answers for is could-not-test (exit 3), not a configuration error",
    async (_name, command) => {
      const gone = await startMetadataServer({
        document: (_read, issuer) => metadataFor(issuer, trap.tokenUrl),
      });
      const issuer = gone.issuer;
      await gone.close();
      const reportArgs = command === tokenCommand ? [] : ["--report-dir", path.join(work, "gone")];
      const run = await runInProcess(command, [...target(issuer), ...reportArgs], env());
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain(`could not read the metadata of the issuer ${issuer}`);
      expect(run.stderr).not.toContain("internal error");
      expect(trap.requests).toEqual([]);
    },
  );

  it("an https issuer whose certificate is not trusted is could-not-test too (exit 3)", async () => {
    const run = await runInProcess(tokenCommand, target(downgrading.issuer), {
      EVENT_API_CLIENT_SECRET: SECRET,
    });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`could not read the metadata of the issuer ${downgrading.issuer}`);
    expect(trap.requests).toEqual([]);
  });

  it("metadata that answers but is not valid stays a configuration error (exit 2)", async () => {
    const wrong = await startMetadataServer({ document: () => ({ issuer: "https://someone-else.example" }) });
    try {
      const run = await runInProcess(tokenCommand, target(wrong.issuer), env());
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--issuer: no metadata for the issuer ${wrong.issuer}`);
    } finally {
      await wrong.close();
    }
  });
});
