import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

// Basic only: a run that passes shows the method came from the metadata, not from the default.
const it = base.extend("basicOnly", async ({ sandbox }) => sandbox(["token-basic-only"]));

const env = (sandbox: RunningSandbox) => ({
  EVENT_API_CLIENT_SECRET: sandbox.clients[0]?.clientSecret ?? "",
});
const target = (sandbox: RunningSandbox) => [
  "--base-url",
  sandbox.baseUrl,
  "--client-id",
  sandbox.clients[0]?.clientId ?? "",
];

describe("contract --issuer", () => {
  it("gets a token from the endpoint and with the method the issuer's metadata names", async ({
    basicOnly: sandbox,
    tmpDir: work,
  }) => {
    const run = await runInProcess(
      contractCommand,
      [
        "--issuer",
        sandbox.authUrl,
        ...target(sandbox),
        "--only",
        "token.issued",
        "--report-dir",
        path.join(work, "ok"),
      ],
      env(sandbox),
    );
    expect(run.stderr).toContain(
      `event-harness: --issuer: token endpoint ${sandbox.tokenUrl}, client authentication client_secret_basic`,
    );
    expect(run.stdout).toMatch(/PASS\s+token\.issued/);
    expect(run.code).toBe(0);
  });

  it("refuses --issuer with --auth-url (exit 2)", async ({ basicOnly: sandbox }) => {
    const run = await runInProcess(
      contractCommand,
      ["--issuer", sandbox.authUrl, "--auth-url", sandbox.authUrl, ...target(sandbox)],
      env(sandbox),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("give either --issuer");
  });
});
