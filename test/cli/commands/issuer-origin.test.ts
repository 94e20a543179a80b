import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import type { MetadataServer } from "../../support/metadata-server.ts";
import { metadataFor, startMetadataServer } from "../../support/metadata-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const CLIENT = { clientId: "origin-test-client", clientSecret: "origin-test-secret-6b2e8d" };

let sandbox: RunningSandbox;
let issuerServer: MetadataServer;
let work: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, clients: [CLIENT] });
  // The issuer on one origin, its token endpoint on another, as Entra ID publishes it: legitimate, and named.
  issuerServer = await startMetadataServer({
    document: (_read, issuer) => metadataFor(issuer, sandbox.tokenUrl),
  });
  work = await mkdtemp(path.join(tmpdir(), "eah-origin-"));
});
afterAll(async () => {
  await issuerServer.close();
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
});

const tokenOrigin = () => new URL(sandbox.tokenUrl).origin;
const env = () => ({ EVENT_API_CLIENT_SECRET: CLIENT.clientSecret });
const target = (issuer: string) => [
  "--issuer",
  issuer,
  "--base-url",
  sandbox.baseUrl,
  "--client-id",
  CLIENT.clientId,
];
const read = (file: string) => readFile(file, "utf8");
const json = async (file: string) => JSON.parse(await read(file)) as { target: Record<string, unknown> };

describe("a token endpoint on another origin than the issuer's", () => {
  it("contract: the header, results.json and summary.md name its origin", async () => {
    const dir = path.join(work, "contract");
    const run = await runInProcess(
      contractCommand,
      [...target(issuerServer.issuer), "--only", "token.issued", "--report-dir", dir],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    const phrase = `on ${tokenOrigin()}, another origin than the issuer ${issuerServer.issuer}`;
    expect(run.stderr).toContain(
      `(token endpoint ${sandbox.tokenUrl} ${phrase}, client authentication post)`,
    );
    const results = await json(path.join(dir, "results.json"));
    expect(results.target).toMatchObject({
      tokenUrl: sandbox.tokenUrl,
      issuer: issuerServer.issuer,
      tokenEndpointOrigin: tokenOrigin(),
    });
    const summary = await read(path.join(dir, "summary.md"));
    expect(summary).toContain(
      `token endpoint \`${sandbox.tokenUrl}\` on \`${tokenOrigin()}\`, another origin than the issuer \`${issuerServer.issuer}\``,
    );
    expect(`${run.stdout}${run.stderr}${summary}`).not.toContain(CLIENT.clientSecret);
  });

  it("run: the header, run.json, index.html and summary.md name its origin", async () => {
    const dir = path.join(work, "run");
    const run = await runInProcess(
      runCommand,
      [...target(issuerServer.issuer), "--profile", "fast", "--report-dir", dir],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    const phrase = `on ${tokenOrigin()}, another origin than the issuer ${issuerServer.issuer}`;
    expect(run.stdout).toContain(
      `(token endpoint ${sandbox.tokenUrl} ${phrase}, client authentication post)`,
    );
    const outcome = await json(path.join(dir, "run.json"));
    expect(outcome.target).toMatchObject({
      tokenUrl: sandbox.tokenUrl,
      issuer: issuerServer.issuer,
      tokenEndpointOrigin: tokenOrigin(),
    });
    const html = await read(path.join(dir, "index.html"));
    expect(html).toContain(`on ${tokenOrigin()}, another origin than the issuer ${issuerServer.issuer}`);
    const summary = await read(path.join(dir, "summary.md"));
    expect(summary).toContain(
      `on \`${tokenOrigin()}\`, another origin than the issuer \`${issuerServer.issuer}\``,
    );
    // The contract part's own reports say it too.
    const part = await json(path.join(dir, "contract", "results.json"));
    expect(part.target).toMatchObject({ issuer: issuerServer.issuer, tokenEndpointOrigin: tokenOrigin() });
  });

  it("the issuer's own origin is not remarked on", async () => {
    const dir = path.join(work, "same-origin");
    const run = await runInProcess(
      contractCommand,
      [...target(sandbox.authUrl), "--only", "token.issued", "--report-dir", dir],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("another origin");
    const results = await json(path.join(dir, "results.json"));
    expect(results.target).toMatchObject({ issuer: sandbox.authUrl });
    expect(results.target).not.toHaveProperty("tokenEndpointOrigin");
  });
});
