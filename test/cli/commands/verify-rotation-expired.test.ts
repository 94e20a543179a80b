import { join } from "node:path";
import { describe, expect, test } from "../../support/fixtures.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const EXPIRES_IN = 5;

/**
 * `aging`: the target of a rotation after which the old token had simply expired: a sandbox whose clock then runs
 * ahead of real time by more than expires_in (the test ages the token without waiting), the rotation revoking nothing.
 */
const it = test.extend("aging", async ({ sandbox }) => {
  let aheadMs = 0;
  const target = await sandbox({
    expiresIn: EXPIRES_IN,
    clock: { now: () => Date.now() + aheadMs },
    clients: [{ clientId: "aging-client", clientSecret: "old-secret-9f8e7d6c5b" }],
  });
  const oldToken = await target.issueToken("aging-client");
  // The token outlives expires_in before anyone uses it again; the rotation revokes nothing.
  aheadMs = (EXPIRES_IN + 5) * 1000;
  const newSecret = (await target.rotateSecret("aging-client", { overlapSeconds: 0, revokeTokens: false }))
    .clientSecret;
  return {
    EVENT_API_AUTH_URL: target.authUrl,
    EVENT_API_BASE_URL: target.baseUrl,
    EVENT_API_CLIENT_ID: "aging-client",
    EVENT_API_CLIENT_SECRET: newSecret,
    EVENT_API_OLD_ACCESS_TOKEN: oldToken,
  } as NodeJS.ProcessEnv;
});

describe("rotation.old-tokens with a token that simply expired", () => {
  it("says it expired and cannot decide, instead of calling it revoked", async ({ aging, tmpDir }) => {
    const run = await runCliInProcess(
      ["verify-rotation", "--expect-old-tokens", "valid", "--report-dir", join(tmpDir, "expected")],
      aging,
    );
    expect(run.stdout).toMatch(
      /ERROR +rotation\.old-tokens +MUST +could not decide: the earlier token had expired, not been revoked \(the 401 says "The access token expired"\)/,
    );
    expect(run.stdout).not.toContain("it is revoked");
    expect(run.code).toBe(3);
  });

  it("observes it as expired when no expectation is stated", async ({ aging, tmpDir }) => {
    const run = await runCliInProcess(["verify-rotation", "--report-dir", join(tmpDir, "observed")], aging);
    expect(run.stdout).toMatch(
      /PASS +rotation\.old-tokens +INFO +the earlier token had expired, not been revoked/,
    );
  });
});
