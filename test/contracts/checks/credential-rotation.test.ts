import type { CheckDefinition, CheckResult, RotationExpectations } from "../../../contracts/index.ts";
import { rotationChecks, Secret, targetRedactor } from "../../../contracts/index.ts";
import type { RotationOptions, RunningSandbox } from "../../../sandbox/index.ts";
import { runCheckOn, sandboxTarget } from "../../support/contract-checks.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { startInterposingServer } from "../../support/interposing-server.ts";

type RotationId = "rotation.new-secret" | "rotation.old-secret" | "rotation.old-tokens";

function rotationCheck(id: RotationId, expected: RotationExpectations): CheckDefinition {
  const check = rotationChecks(expected).find((candidate) => candidate.id === id);
  if (check === undefined) throw new Error(`no check ${id}`);
  return check;
}

/** The sandbox's client after a rotation: its old secret, a token issued before, and the check run with the new. */
async function rotated(
  sandbox: RunningSandbox,
  options: RotationOptions,
): Promise<{ oldSecret: Secret; oldToken: string }> {
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("no client");
  const oldToken = await sandbox.issueToken(client.clientId);
  await sandbox.rotateSecret(client.clientId, options);
  return { oldSecret: new Secret(client.clientSecret), oldToken };
}

describe("rotationChecks", () => {
  it("makes an unstated expectation an observation (INFO) and a stated one a MUST, in its title and rule", () => {
    const observed = rotationChecks({});
    expect(observed.map((check) => [check.id, check.level, check.rule])).toEqual([
      ["rotation.new-secret", "MUST", "Authentication rules 1 and 3, with the rotated credentials"],
      ["rotation.old-secret", "INFO", "Rotation: observed"],
      ["rotation.old-tokens", "INFO", "Rotation: observed"],
    ]);
    expect(observed[1]?.title).toBe("The old secret is refused or accepted (observed)");
    const stated = rotationChecks({ expectOld: "refused", expectOldTokens: "revoked" });
    expect(stated.map((check) => [check.level, check.title, check.rule]).slice(1)).toEqual([
      ["MUST", "The old secret is refused", "Rotation: the user expects the old secret refused"],
      [
        "MUST",
        "Tokens issued before the rotation are revoked",
        "Rotation: the user expects earlier tokens to be revoked",
      ],
    ]);
  });

  it("SKIPs the old-secret and old-token checks when neither was given, naming the variable", async ({
    sandbox,
  }) => {
    const target = await sandbox();
    const secret = await runCheckOn(rotationCheck("rotation.old-secret", { expectOld: "refused" }), target);
    expect([secret.status, secret.message]).toEqual([
      "SKIP",
      "no old secret given (EVENT_API_OLD_CLIENT_SECRET)",
    ]);
    const tokens = await runCheckOn(
      rotationCheck("rotation.old-tokens", { expectOldTokens: "valid" }),
      target,
    );
    expect([tokens.status, tokens.message]).toEqual([
      "SKIP",
      "no token from before the rotation given (EVENT_API_OLD_ACCESS_TOKEN)",
    ]);
  });
});

describe("the rotation checks against a rotated sandbox", () => {
  it("passes the new secret, and fails a secret that gets no token", async ({ sandbox }) => {
    const target = await sandbox();
    await rotated(target, {});
    const check = rotationCheck("rotation.new-secret", {});
    const works = await runCheckOn(check, target);
    expect([works.status, works.message]).toEqual(["PASS", "token issued (200) and event accepted (202)"]);
    const stale = await runCheckOn(check, target, { clientSecret: new Secret("sandbox-demo-secret") });
    expect(stale.status).toBe("FAIL");
    expect(stale.message).toMatch(
      /^expected an access token for the new secret, received 401 application\/json /,
    );
  });

  it("judges an old secret refused at once against what the user expects", async ({ sandbox }) => {
    const target = await sandbox();
    const { oldSecret } = await rotated(target, { overlapSeconds: 0 });
    // The old secret is the caller's to hide, as verify-rotation registers it.
    const redactor = targetRedactor(sandboxTarget(target)).add(oldSecret.reveal(), "<CLIENT_SECRET>");
    const run = (expectOld?: "refused" | "accepted"): Promise<CheckResult> =>
      runCheckOn(
        rotationCheck("rotation.old-secret", {
          oldSecret,
          ...(expectOld === undefined ? {} : { expectOld }),
        }),
        target,
        {},
        { redactor },
      );
    const refused = await run("refused");
    expect(refused.status).toBe("PASS");
    expect(refused.message).toMatch(/^the old secret is refused: 401 application\/json .*invalid_client/);
    const accepted = await run("accepted");
    expect(accepted.status).toBe("FAIL");
    expect(accepted.message).toMatch(/^expected the old secret to be accepted, but it was refused: 401 /);
    const observed = await run();
    expect([observed.status, observed.level]).toEqual(["PASS", "INFO"]);
    expect(observed.message).toMatch(/^the old secret is refused: 401 /);
    expect(JSON.stringify([refused, accepted, observed])).not.toContain(oldSecret.reveal());
  });

  it("judges an old secret still accepted during an overlap", async ({ sandbox }) => {
    const target = await sandbox();
    const { oldSecret } = await rotated(target, { overlapSeconds: 600 });
    const accepted = await runCheckOn(
      rotationCheck("rotation.old-secret", { oldSecret, expectOld: "accepted" }),
      target,
    );
    expect([accepted.status, accepted.message]).toEqual([
      "PASS",
      "the old secret is accepted: a token was issued (200)",
    ]);
    const refused = await runCheckOn(
      rotationCheck("rotation.old-secret", { oldSecret, expectOld: "refused" }),
      target,
    );
    expect([refused.status, refused.message]).toEqual([
      "FAIL",
      "expected the old secret to be refused, but it was accepted: a token was issued (200)",
    ]);
  });

  it("tells a revoked earlier token from a valid one, without showing it", async ({ sandbox }) => {
    const revoking = await sandbox({ expiresIn: 300 });
    const before = await rotated(revoking, { revokeTokens: true });
    const oldToken = new Secret(before.oldToken);
    const revoked = await runCheckOn(
      rotationCheck("rotation.old-tokens", { oldToken, expectOldTokens: "revoked" }),
      revoking,
    );
    expect(revoked.status, revoked.message).toBe("PASS");
    expect(revoked.message).toMatch(/^the earlier token is revoked \(401; /);
    const expectedValid = await runCheckOn(
      rotationCheck("rotation.old-tokens", { oldToken, expectOldTokens: "valid" }),
      revoking,
    );
    expect(expectedValid.status).toBe("FAIL");
    expect(expectedValid.message).toMatch(/^expected the earlier token to be valid, but it is revoked \(/);
    const shown = JSON.stringify([revoked, expectedValid]);
    expect(shown).not.toContain(before.oldToken);
    expect(shown).toContain("Bearer <OLD_ACCESS_TOKEN>");

    const keeping = await sandbox({ expiresIn: 300 });
    const kept = await rotated(keeping, { revokeTokens: false });
    const valid = await runCheckOn(
      rotationCheck("rotation.old-tokens", { oldToken: new Secret(kept.oldToken), expectOldTokens: "valid" }),
      keeping,
    );
    expect([valid.status, valid.message]).toEqual(["PASS", "the earlier token is valid (202)"]);
    const expectedRevoked = await runCheckOn(
      rotationCheck("rotation.old-tokens", {
        oldToken: new Secret(kept.oldToken),
        expectOldTokens: "revoked",
      }),
      keeping,
    );
    expect(expectedRevoked.status).toBe("FAIL");
    expect(expectedRevoked.message).toMatch(
      /^expected the earlier token to be revoked, but it is valid: 202 .*; if the server did revoke it, the API checks tokens by their signature alone, which an --issuer whose metadata names an introspection_endpoint lets the harness tell$/,
    );
  });

  it("cannot call an expired earlier token revoked, and only observes it when nothing was expected", async ({
    sandbox,
  }) => {
    // The token is issued on a sandbox clock 1,000 s behind: idle far past its 300 s by the time it is used.
    let offset = -1_000_000;
    const target = await sandbox({ expiresIn: 300, clock: { now: () => Date.now() + offset } });
    const client = target.clients[0];
    if (client === undefined) throw new Error("no client");
    const oldToken = new Secret(await target.issueToken(client.clientId));
    offset = 0;
    await target.rotateSecret(client.clientId, {});
    const expected = await runCheckOn(
      rotationCheck("rotation.old-tokens", { oldToken, expectOldTokens: "revoked" }),
      target,
    );
    expect(expected.status).toBe("ERROR");
    expect(expected.message).toMatch(
      /^could not decide: the earlier token had expired, not been revoked \(.+\), so its refusal says nothing about the rotation: give a token taken just before rotating$/,
    );
    const unstated = await runCheckOn(rotationCheck("rotation.old-tokens", { oldToken }), target);
    expect([unstated.status, unstated.level]).toEqual(["PASS", "INFO"]);
    expect(unstated.message).toMatch(/^the earlier token had expired, not been revoked \(.+\): 401 /);
  });

  it("fails an earlier token answered with neither acceptance nor a token refusal", async ({
    sandbox,
    onTestFinished,
  }) => {
    const target = await sandbox({ expiresIn: 300 });
    const { oldToken } = await rotated(target, {});
    const front = await startInterposingServer(new URL(target.baseUrl).origin, (_method, path, headers) =>
      path.endsWith("/events") && headers.authorization === `Bearer ${oldToken}`
        ? { status: 404, headers: { "content-type": "text/plain" }, body: "no such route" }
        : undefined,
    );
    onTestFinished(() => front.close());
    const result = await runCheckOn(
      rotationCheck("rotation.old-tokens", { oldToken: new Secret(oldToken), expectOldTokens: "valid" }),
      target,
      { baseUrl: front.url(target.baseUrl) },
    );
    expect([result.status, result.message]).toEqual([
      "FAIL",
      "expected the earlier token to be valid, but it was neither accepted nor refused, 401 or 403 (RFC 6750 §3.1): 404 text/plain no such route",
    ]);
  });
});
