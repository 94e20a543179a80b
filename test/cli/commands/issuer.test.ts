import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCommand } from "../../../cli/commands/contract.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { runInProcess } from "../../support/run-in-process.ts";

let sandbox: RunningSandbox;
let work: string;
beforeAll(async () => {
  // Basic only: a run that passes shows the method came from the metadata, not from the default.
  sandbox = await startSandbox({ port: 0, faults: ["token-basic-only"] });
  work = await mkdtemp(path.join(tmpdir(), "eh-issuer-"));
});
afterAll(async () => {
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
});

const env = () => ({ EVENT_API_CLIENT_SECRET: sandbox.clients[0]?.clientSecret ?? "" });
const target = () => ["--base-url", sandbox.baseUrl, "--client-id", sandbox.clients[0]?.clientId ?? ""];

describe("contract --issuer", () => {
  it("gets a token from the endpoint and with the method the issuer's metadata names", async () => {
    const run = await runInProcess(
      contractCommand,
      [
        "--issuer",
        sandbox.authUrl,
        ...target(),
        "--only",
        "token.issued",
        "--report-dir",
        path.join(work, "ok"),
      ],
      env(),
    );
    expect(run.stderr).toContain(
      `event-harness: --issuer: token endpoint ${sandbox.tokenUrl}, client authentication client_secret_basic`,
    );
    expect(run.stdout).toMatch(/PASS\s+token\.issued/);
    expect(run.code).toBe(0);
  });

  it("refuses --issuer with --auth-url (exit 2)", async () => {
    const run = await runInProcess(
      contractCommand,
      ["--issuer", sandbox.authUrl, "--auth-url", sandbox.authUrl, ...target()],
      env(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("give either --issuer");
  });
});
