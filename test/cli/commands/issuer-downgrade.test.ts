import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import { tokenCommand } from "../../../cli/commands/token.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { metadataFor, startMetadataServer } from "../../support/metadata-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";
import type { TestPki } from "../../support/test-ca.ts";
import { makeTestPki } from "../../support/test-ca.ts";
import { startTokenTrap } from "../../support/token-trap.ts";

const SECRET = "downgrade-test-secret-3f9e1c";

/** The test CA, the token endpoint no request may reach, and the https issuer that names it over http, per file. */
const it = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("pki", { scope: "file" }, async ({}, { onCleanup }) => {
    const pki = await makeTestPki(["127.0.0.1"]);
    onCleanup(() => rm(pki.dir, { recursive: true, force: true }));
    return pki;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  .extend("trap", { scope: "file" }, async ({}, { onCleanup }) => {
    const trap = await startTokenTrap();
    onCleanup(() => trap.close());
    return trap;
  })
  .extend("downgrading", { scope: "file" }, async ({ pki, trap }, { onCleanup }) => {
    // An https issuer whose metadata names a token endpoint over plain http: Keycloak behind a TLS proxy without
    // forwarded headers publishes exactly that.
    const downgrading = await startMetadataServer({
      tls: { key: pki.serverKey, cert: pki.serverCert },
      document: (_read, issuer) => metadataFor(issuer, trap.tokenUrl),
    });
    onCleanup(() => downgrading.close());
    return downgrading;
  });

const env = (pki: TestPki) => ({ EVENT_API_CLIENT_SECRET: SECRET, NODE_EXTRA_CA_CERTS: pki.caFile });
const target = (issuer: string) => [
  "--issuer",
  issuer,
  "--base-url",
  "http://127.0.0.1:9/api",
  "--client-id",
  "shop-1",
];

describe("an https issuer whose metadata names an http token endpoint", () => {
  it.for([
    ["contract", contractCommand, ["--report-dir", "contract"]],
    ["token", tokenCommand, []],
    ["run", runCommand, ["--report-dir", "run"]],
  ] as const)(
    "%s: refused with exit 2 naming the endpoint, before any token request",
    async ([, command, extra], { pki, trap, downgrading, tmpDir: work }) => {
      const reportArgs = extra.map((arg) => (arg === extra[1] ? path.join(work, arg) : arg));
      const run = await runInProcess(command, [...target(downgrading.issuer), ...reportArgs], env(pki));
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
  it("is not told to downgrade: no --token-url over http is suggested", async ({
    pki,
    trap,
    downgrading,
  }) => {
    const run = await runInProcess(
      tokenCommand,
      ["--token-url", `${downgrading.issuer}/wrong/token`, ...target(downgrading.issuer).slice(2)],
      env(pki),
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain("is not a token endpoint");
    expect(run.stderr).not.toContain("did you mean");
    expect(trap.requests).toEqual([]);
  });
});

describe("issuer metadata that cannot be read at all", () => {
  it.for([
    ["contract", contractCommand],
    ["token", tokenCommand],
  ] as const)(
    "%s: an issuer nobody answers for is could-not-test (exit 3), not a configuration error",
    async ([, command], { pki, trap, tmpDir: work }) => {
      const gone = await startMetadataServer({
        document: (_read, issuer) => metadataFor(issuer, trap.tokenUrl),
      });
      const issuer = gone.issuer;
      await gone.close();
      const reportArgs = command === tokenCommand ? [] : ["--report-dir", path.join(work, "gone")];
      const run = await runInProcess(command, [...target(issuer), ...reportArgs], env(pki));
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain(`could not read the metadata of the issuer ${issuer}`);
      expect(run.stderr).not.toContain("internal error");
      expect(trap.requests).toEqual([]);
    },
  );

  it("an https issuer whose certificate is not trusted is could-not-test too (exit 3)", async ({
    trap,
    downgrading,
  }) => {
    const run = await runInProcess(tokenCommand, target(downgrading.issuer), {
      EVENT_API_CLIENT_SECRET: SECRET,
    });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`could not read the metadata of the issuer ${downgrading.issuer}`);
    expect(trap.requests).toEqual([]);
  });

  it("metadata that answers but is not valid stays a configuration error (exit 2)", async ({ pki }) => {
    const wrong = await startMetadataServer({ document: () => ({ issuer: "https://someone-else.example" }) });
    try {
      const run = await runInProcess(tokenCommand, target(wrong.issuer), env(pki));
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--issuer: no metadata for the issuer ${wrong.issuer}`);
    } finally {
      await wrong.close();
    }
  });
});
