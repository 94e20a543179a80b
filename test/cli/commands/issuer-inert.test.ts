import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { tokenCommand } from "../../../cli/commands/token.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { type MetadataServer, startMetadataServer } from "../../support/metadata-server.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// An issuer's metadata is a target's text: its strings are shown inert in the --issuer note and the did-you-mean hint.
/** What a hostile metadata document puts in its strings: a screen clear, a BEL, CR/LF, workflow commands, a bidi override. */
const HOSTILE = "\u001b[2J\u0007\r\n::error::forged\n::add-mask::x\u202e";
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching these characters is the point.
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/;

/** `metadata(options)`: a metadata server, closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
const it = test.extend("metadata", async ({}, { onCleanup }) => {
  const servers: MetadataServer[] = [];
  onCleanup(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  return async (...args: Parameters<typeof startMetadataServer>) => {
    const server = await startMetadataServer(...args);
    servers.push(server);
    return server;
  };
});

function expectInert(text: string): void {
  expect(CONTROLS.test(text), JSON.stringify(text)).toBe(false);
  expect(
    text.split("\n").filter((line) => /^\s*::/.test(line)),
    text,
  ).toEqual([]);
}

const ENV = { EVENT_API_CLIENT_SECRET: "issuer-inert-secret" };

describe("an issuer's metadata strings are shown, never obeyed", () => {
  it("--issuer: the token endpoint and the methods in its note", async ({ metadata }) => {
    const server = await metadata({
      tokens: true,
      document: (_read, base) => ({
        issuer: base,
        token_endpoint: `${base}/token${HOSTILE}`,
        token_endpoint_auth_methods_supported: ["client_secret_post", `x${HOSTILE}`],
      }),
    });
    const run = await runInProcess(
      tokenCommand,
      [
        "--issuer",
        server.issuer,
        "--base-url",
        `${server.issuer}/api`,
        "--client-id",
        "c",
        "--client-auth",
        "basic",
      ],
      ENV,
    );
    expect(run.stderr).toContain("--issuer: token endpoint");
    expect(run.stderr).toContain("does not list client_secret_basic");
    expectInert(run.stderr);
    expect(run.stderr).toContain("\\x1b[2J\\x07\\r\\n::error::forged");
  });

  it("--issuer: the methods in the error when none is one the harness speaks", async ({ metadata }) => {
    const server = await metadata({
      tokens: true,
      document: (_read, base) => ({
        issuer: base,
        token_endpoint: `${base}/token`,
        token_endpoint_auth_methods_supported: [`private_key_jwt${HOSTILE}`],
      }),
    });
    const run = await runInProcess(
      tokenCommand,
      ["--issuer", server.issuer, "--base-url", `${server.issuer}/api`, "--client-id", "c"],
      ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("takes none of client_secret_post, client_secret_basic");
    expectInert(run.stderr);
  });

  it("the did-you-mean hint of a wrong --token-url, in the console and the reports", async ({
    metadata,
    tmpDir: reports,
  }) => {
    const server = await metadata({
      tokens: true,
      document: (_read, base) => ({ issuer: base, token_endpoint: `${base}/token${HOSTILE}` }),
    });
    const run = await runInProcess(
      contractCommand,
      [
        "--token-url",
        `${server.issuer}/wrong`,
        "--base-url",
        `${server.issuer}/api`,
        "--client-id",
        "c",
        "--only",
        "token.issued",
        "--report-dir",
        reports,
      ],
      ENV,
    );
    expect(run.code).toBe(3);
    expect(run.stdout + run.stderr).toContain("did you mean --token-url");
    expectInert(run.stdout);
    expectInert(run.stderr);
    const files = await readdir(reports);
    expect(files).toContain("summary.md");
    for (const file of files) expectInert(await readFile(path.join(reports, file), "utf8"));
  });
});
