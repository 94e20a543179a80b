import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { runCli } from "../../support/run-cli.ts";

const EXPIRES_IN = 5;
let reports: string;
let sandbox: RunningSandbox;
/** The sandbox's clock runs ahead by this much: the test ages a token without waiting. */
let aheadMs = 0;
let oldToken: string;
let newSecret: string;

beforeAll(async () => {
  reports = await mkdtemp(join(tmpdir(), "eah-rotation-expired-"));
  sandbox = await startSandbox({
    port: 0,
    expiresIn: EXPIRES_IN,
    clock: { now: () => Date.now() + aheadMs },
    clients: [{ clientId: "aging-client", clientSecret: "old-secret-9f8e7d6c5b" }],
  });
  oldToken = await sandbox.issueToken("aging-client");
  // The token outlives expires_in before anyone uses it again; the rotation revokes nothing.
  aheadMs = (EXPIRES_IN + 5) * 1000;
  newSecret = (await sandbox.rotateSecret("aging-client", { overlapSeconds: 0, revokeTokens: false }))
    .clientSecret;
});
afterAll(async () => {
  await sandbox.close();
  await rm(reports, { recursive: true, force: true });
});

const target = () => ({
  EVENT_API_AUTH_URL: sandbox.authUrl,
  EVENT_API_BASE_URL: sandbox.baseUrl,
  EVENT_API_CLIENT_ID: "aging-client",
  EVENT_API_CLIENT_SECRET: newSecret,
  EVENT_API_OLD_ACCESS_TOKEN: oldToken,
});

describe("rotation.old-tokens with a token that simply expired", () => {
  it("says it expired and cannot decide, instead of calling it revoked", async () => {
    const run = await runCli(
      ["verify-rotation", "--expect-old-tokens", "valid", "--report-dir", join(reports, "expected")],
      target(),
    );
    expect(run.stdout).toMatch(
      /ERROR +rotation\.old-tokens +MUST +could not decide: the earlier token had expired, not been revoked \(the 401 says "The access token expired"\)/,
    );
    expect(run.stdout).not.toContain("it is revoked");
    expect(run.code).toBe(3);
  });

  it("observes it as expired when no expectation is stated", async () => {
    const run = await runCli(["verify-rotation", "--report-dir", join(reports, "observed")], target());
    expect(run.stdout).toMatch(
      /PASS +rotation\.old-tokens +INFO +the earlier token had expired, not been revoked/,
    );
  });
});
