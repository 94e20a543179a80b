import type { CheckDefinition, CheckResult } from "../../../contracts/index.ts";
import { ALL_CHECKS, DIRECT, executeCheck, Probe, Redactor, Secret } from "../../../contracts/index.ts";
import { createEventGenerator, INVALID_VARIANTS } from "../../../generators/index.ts";
import type { ChallengeFront, ChallengeRewrite } from "../../support/challenge-front.ts";
import { challengeFrontTest as it } from "../../support/challenge-front.ts";
import { describe, expect } from "../../support/fixtures.ts";

function check(id: string): CheckDefinition {
  const found = ALL_CHECKS.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
}

async function bearerChallenge(front: ChallengeFront): Promise<CheckResult> {
  const events = createEventGenerator({ seed: 9, runId: "challenges", referencePrefix: "eah-challenges-" });
  const probe = new Probe({
    target: {
      tokenUrl: front.tokenUrl,
      baseUrl: front.baseUrl,
      audience: front.sandbox.baseUrl,
      clientId: "sandbox-demo",
      clientSecret: new Secret("sandbox-demo-secret"),
      clientAuth: "post",
      connection: DIRECT,
      timeoutMs: 5_000,
      embedded: false,
    },
    redactor: new Redactor(),
    nextEvent: () => events.next(),
    eventBreakers: INVALID_VARIANTS,
  });
  return executeCheck(check("bearer.challenge"), probe);
}

describe("bearer.challenge reads every challenge of a 401 (RFC 9110 §11.6.1)", () => {
  it.for<ChallengeRewrite>(["basic-then-bearer-lines", "basic-then-bearer-joined", "negotiate-basic-bearer"])(
    "passes a correct API whose Bearer challenge comes after others (%s)",
    async (rewrite, { challengeFront }) => {
      const front = await challengeFront(rewrite);
      const result = await bearerChallenge(front);
      expect(result.status, result.message).toBe("PASS");
    },
  );

  it("warns when the only Bearer challenge is text quoted inside a Basic one", async ({ challengeFront }) => {
    const front = await challengeFront("bearer-only-quoted");
    const result = await bearerChallenge(front);
    expect(result.status, result.message).toBe("WARN");
    expect(result.message).toContain("expected WWW-Authenticate: Bearer");
  });

  it('warns when the Bearer challenge after a Basic one lacks error="invalid_token" for a bad token', async ({
    challengeFront,
  }) => {
    const front = await challengeFront("basic-then-bearer-without-error");
    const result = await bearerChallenge(front);
    expect(result.status, result.message).toBe("WARN");
    expect(result.message).toMatch(/a garbage bearer token: expected error="invalid_token"/);
    expect(result.message).not.toContain("no Authorization header");
  });
});
