import { readFile } from "node:fs/promises";
import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { metadataFor, startMetadataServer } from "../../support/metadata-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const CLIENT = { clientId: "origin-test-client", clientSecret: "origin-test-secret-6b2e8d" };

/**
 * `origins`: the sandbox and an issuer on another origin whose metadata names the sandbox's token endpoint, as Entra
 * ID publishes it (legitimate, and named); both closed after the test.
 */
const it = test.extend("origins", async ({ sandbox: start }, { onCleanup }) => {
  const sandbox = await start({ clients: [CLIENT] });
  const issuerServer = await startMetadataServer({
    document: (_read, issuer) => metadataFor(issuer, sandbox.tokenUrl),
  });
  onCleanup(() => issuerServer.close());
  return { sandbox, issuerServer };
});

const tokenOrigin = (sandbox: RunningSandbox) => new URL(sandbox.tokenUrl).origin;
const env = () => ({ EVENT_API_CLIENT_SECRET: CLIENT.clientSecret });
const target = (sandbox: RunningSandbox, issuer: string) => [
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
  it("contract: the header, results.json and summary.md name its origin", async ({
    origins: { sandbox, issuerServer },
    tmpDir,
  }) => {
    const dir = path.join(tmpDir, "contract");
    const run = await runInProcess(
      contractCommand,
      [...target(sandbox, issuerServer.issuer), "--only", "token.issued", "--report-dir", dir],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    const phrase = `on ${tokenOrigin(sandbox)}, another origin than the issuer ${issuerServer.issuer}`;
    expect(run.stderr).toContain(
      `(token endpoint ${sandbox.tokenUrl} ${phrase}, client authentication post)`,
    );
    const results = await json(path.join(dir, "results.json"));
    expect(results.target).toMatchObject({
      tokenUrl: sandbox.tokenUrl,
      issuer: issuerServer.issuer,
      tokenEndpointOrigin: tokenOrigin(sandbox),
    });
    const summary = await read(path.join(dir, "summary.md"));
    expect(summary).toContain(
      `token endpoint \`${sandbox.tokenUrl}\` on \`${tokenOrigin(sandbox)}\`, another origin than the issuer \`${issuerServer.issuer}\``,
    );
    expect(`${run.stdout}${run.stderr}${summary}`).not.toContain(CLIENT.clientSecret);
  });

  it("run: the header, run.json, index.html and summary.md name its origin", async ({
    origins: { sandbox, issuerServer },
    tmpDir,
  }) => {
    const dir = path.join(tmpDir, "run");
    const run = await runInProcess(
      runCommand,
      [...target(sandbox, issuerServer.issuer), "--profile", "fast", "--report-dir", dir],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    const phrase = `on ${tokenOrigin(sandbox)}, another origin than the issuer ${issuerServer.issuer}`;
    expect(run.stdout).toContain(
      `(token endpoint ${sandbox.tokenUrl} ${phrase}, client authentication post)`,
    );
    const outcome = await json(path.join(dir, "run.json"));
    expect(outcome.target).toMatchObject({
      tokenUrl: sandbox.tokenUrl,
      issuer: issuerServer.issuer,
      tokenEndpointOrigin: tokenOrigin(sandbox),
    });
    const html = await read(path.join(dir, "index.html"));
    expect(html).toContain(
      `on ${tokenOrigin(sandbox)}, another origin than the issuer ${issuerServer.issuer}`,
    );
    const summary = await read(path.join(dir, "summary.md"));
    expect(summary).toContain(
      `on \`${tokenOrigin(sandbox)}\`, another origin than the issuer \`${issuerServer.issuer}\``,
    );
    // The contract part's own reports say it too.
    const part = await json(path.join(dir, "contract", "results.json"));
    expect(part.target).toMatchObject({
      issuer: issuerServer.issuer,
      tokenEndpointOrigin: tokenOrigin(sandbox),
    });
  });

  it("the issuer's own origin is not remarked on", async ({ origins: { sandbox }, tmpDir }) => {
    const dir = path.join(tmpDir, "same-origin");
    const run = await runInProcess(
      contractCommand,
      [...target(sandbox, sandbox.authUrl), "--only", "token.issued", "--report-dir", dir],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("another origin");
    const results = await json(path.join(dir, "results.json"));
    expect(results.target).toMatchObject({ issuer: sandbox.authUrl });
    expect(results.target).not.toHaveProperty("tokenEndpointOrigin");
  });
});
