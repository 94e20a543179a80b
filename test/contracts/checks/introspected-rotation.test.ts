import type { CheckResult, RotationExpectations } from "../../../contracts/index.ts";
import { DIRECT, executeCheck, Probe, Redactor, rotationChecks, Secret } from "../../../contracts/index.ts";
import { createEventGenerator, INVALID_VARIANTS } from "../../../generators/index.ts";
import type { FaultName, SandboxOptions } from "../../../sandbox/index.ts";
import type { ChallengeFront, ChallengeRewrite } from "../../support/challenge-front.ts";
import { INTROSPECTION_DESCRIPTION, challengeFrontTest as it } from "../../support/challenge-front.ts";
import { describe, expect } from "../../support/fixtures.ts";

const EXPIRES_IN = 300;

/** Rotates the client's secret with its tokens revoked, then runs rotation.old-tokens on the token from before. */
async function oldTokensAfterRevocation(
  challengeFront: (rewrite: ChallengeRewrite, options: SandboxOptions) => Promise<ChallengeFront>,
  expectations: Pick<RotationExpectations, "expectOldTokens">,
  faults: FaultName[] = [],
): Promise<CheckResult> {
  const front = await challengeFront("introspection", { expiresIn: EXPIRES_IN, faults });
  const oldToken = await front.sandbox.issueToken("sandbox-demo");
  const rotated = await front.sandbox.rotateSecret("sandbox-demo", { overlapSeconds: 0, revokeTokens: true });
  const check = rotationChecks({
    oldSecret: new Secret("sandbox-demo-secret"),
    oldToken: new Secret(oldToken),
    ...expectations,
  }).find((candidate) => candidate.id === "rotation.old-tokens");
  if (check === undefined) throw new Error("no check rotation.old-tokens");
  const events = createEventGenerator({
    seed: 11,
    runId: "introspected",
    referencePrefix: "eah-introspected-",
  });
  const probe = new Probe({
    target: {
      tokenUrl: front.tokenUrl,
      baseUrl: front.baseUrl,
      audience: front.sandbox.baseUrl,
      clientId: "sandbox-demo",
      clientSecret: new Secret(rotated.clientSecret),
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: false,
    },
    redactor: new Redactor(),
    nextEvent: () => events.next(),
    eventBreakers: INVALID_VARIANTS,
  });
  return executeCheck(check, probe);
}

describe(`rotation.old-tokens behind introspection ("${INTROSPECTION_DESCRIPTION}")`, () => {
  it("decides by the token's age when its refusal names both expiry and revocation", async ({
    challengeFront,
  }) => {
    const result = await oldTokensAfterRevocation(challengeFront, { expectOldTokens: "revoked" });
    expect(result.status, result.message).toBe("PASS");
    expect(result.message).toMatch(
      /the earlier token is revoked \(401; issued \d+ s ago, within expires_in 300 s\)/,
    );
  });

  it("fails an expectation of valid tokens on the same evidence", async ({ challengeFront }) => {
    const result = await oldTokensAfterRevocation(challengeFront, { expectOldTokens: "valid" });
    expect(result.status, result.message).toBe("FAIL");
    expect(result.message).toContain("but it is revoked");
  });

  it("says expired and revoked could not be told apart for an opaque token", async ({ challengeFront }) => {
    const result = await oldTokensAfterRevocation(challengeFront, { expectOldTokens: "revoked" }, [
      "token-opaque",
    ]);
    expect(result.status, result.message).toBe("ERROR");
    expect(result.message).toMatch(/expired and revoked cannot be told apart/);
    expect(result.message).toContain(INTROSPECTION_DESCRIPTION);
    expect(result.message).not.toMatch(/had expired, not been revoked/);
  });
});
