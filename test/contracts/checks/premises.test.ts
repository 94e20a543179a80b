import { afterEach, describe, expect, it } from "vitest";
import type { CheckDefinition, CheckResult, RotationExpectations, Target } from "../../../contracts/index.ts";
import {
  ALL_CHECKS,
  DIRECT,
  executeCheck,
  Probe,
  Redactor,
  rotationChecks,
  Secret,
} from "../../../contracts/index.ts";
import { createEventGenerator, INVALID_VARIANTS } from "../../../generators/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import type { OddAnswer, OddRefusalServer } from "../../support/odd-refusal-server.ts";
import { ODD_ANSWERS, startOddRefusalServer } from "../../support/odd-refusal-server.ts";

/** The checks that pass on a refusal: each needs the same target to accept the valid request first. */
const TOKEN_REFUSALS = [
  "token.wrong-secret-refused",
  "token.unknown-client-refused",
  "token.grant-type-enforced",
  "token.error-format",
];
const EVENT_REFUSALS = [
  "events.no-server-error",
  "events.invalid-rejected",
  "events.malformed-json",
  "events.wrong-content-type",
];

/** The bearer checks pass on a rejected event: the same events URL must accept a valid token's event first. */
const BEARER_REFUSALS = [
  "bearer.missing",
  "bearer.garbage",
  "bearer.other-scheme",
  "bearer.truncated",
  "bearer.tampered",
  "bearer.alg-none",
  "bearer.foreign-key",
];

const checkById = (id: string): CheckDefinition => {
  const check = ALL_CHECKS.find((candidate) => candidate.id === id);
  if (check === undefined) throw new Error(`no check ${id}`);
  return check;
};

async function run(id: string, target: Target): Promise<CheckResult> {
  const events = createEventGenerator({ seed: 7, runId: "premises", referencePrefix: "eah-premises-" });
  const probe = new Probe({
    target,
    redactor: new Redactor(),
    nextEvent: () => events.next(),
    eventBreakers: INVALID_VARIANTS,
  });
  return executeCheck(checkById(id), probe);
}

function targetOf(
  urls: { tokenUrl: string; baseUrl: string; audience: string },
  clientSecret = "sandbox-demo-secret",
): Target {
  return {
    ...urls,
    clientId: "sandbox-demo",
    clientSecret: new Secret(clientSecret),
    clientAuth: "post",
    connection: DIRECT,
    timeoutMs: 5_000,
    embedded: false,
  };
}

let sandbox: RunningSandbox | undefined;
let front: OddRefusalServer | undefined;
afterEach(async () => {
  await sandbox?.close();
  await front?.close();
  sandbox = undefined;
  front = undefined;
});

describe("a check whose premise failed is SKIP, never a PASS on the refusal that stopped everything", () => {
  it.each(TOKEN_REFUSALS)("%s with a wrong client secret", async (id) => {
    sandbox = await startSandbox({ port: 0 });
    const result = await run(
      id,
      targetOf({ ...sandbox, audience: sandbox.baseUrl }, "not-the-sandbox-secret"),
    );
    expect(result.status, result.message).toBe("SKIP");
    expect(result.message).toMatch(/premise failed: .*401/);
  });

  it.each(TOKEN_REFUSALS)("%s with a wrong token URL (404)", async (id) => {
    sandbox = await startSandbox({ port: 0 });
    const result = await run(
      id,
      targetOf({
        tokenUrl: `${sandbox.authUrl}/wrong/token`,
        baseUrl: sandbox.baseUrl,
        audience: sandbox.baseUrl,
      }),
    );
    expect(result.status, result.message).toBe("SKIP");
    expect(result.message).toMatch(/premise failed: .*404/);
  });

  it.each(BEARER_REFUSALS)("%s with a wrong client secret", async (id) => {
    sandbox = await startSandbox({ port: 0 });
    const result = await run(
      id,
      targetOf({ ...sandbox, audience: sandbox.baseUrl }, "not-the-sandbox-secret"),
    );
    expect(result.status, result.message).toBe("SKIP");
    expect(result.message).toMatch(/premise failed: .*401/);
  });

  it.each([...EVENT_REFUSALS, ...BEARER_REFUSALS])(
    "%s with a wrong base URL (404 for every event)",
    async (id) => {
      sandbox = await startSandbox({ port: 0 });
      const result = await run(
        id,
        targetOf({
          tokenUrl: sandbox.tokenUrl,
          baseUrl: `${sandbox.baseUrl}/wrong`,
          audience: sandbox.baseUrl,
        }),
      );
      expect(result.status, result.message).toBe("SKIP");
      expect(result.message).toMatch(/premise failed: .*404/);
    },
  );
});

describe("only the refusal the rule names passes a refusal check", () => {
  const odd = Object.keys(ODD_ANSWERS) as OddAnswer[];
  const cases = odd.flatMap((answer) =>
    [...TOKEN_REFUSALS.filter((id) => id !== "token.error-format"), ...EVENT_REFUSALS.slice(1)].map(
      (id) => [answer, id] as const,
    ),
  );
  it.each(cases)("a target answering %s instead of refusing fails %s", async (answer, id) => {
    front = await startOddRefusalServer(answer);
    const result = await run(id, targetOf({ ...front, audience: front.sandbox.baseUrl }));
    // A redirect is a failure at any level: it is never followed, and never taken for a refusal.
    const failsAtAnyLevel = ODD_ANSWERS[answer].status === 302 || checkById(id).level === "MUST";
    expect(result.status, result.message).toBe(failsAtAnyLevel ? "FAIL" : "WARN");
    expect(result.message).toContain(String(ODD_ANSWERS[answer].status));
  });

  // A 403 is a bearer refusal (RFC 6750 §3.1), so it is no odd answer for these.
  const bearerCases = odd
    .filter((answer) => answer !== "403")
    .flatMap((answer) => BEARER_REFUSALS.map((id) => [answer, id] as const));
  it.each(bearerCases)("a target answering %s instead of refusing fails %s", async (answer, id) => {
    front = await startOddRefusalServer(answer);
    const result = await run(id, targetOf({ ...front, audience: front.sandbox.baseUrl }));
    expect(result.status, result.message).toBe("FAIL");
    expect(result.message).toContain(String(ODD_ANSWERS[answer].status));
  });

  it.each([...TOKEN_REFUSALS, ...EVENT_REFUSALS, ...BEARER_REFUSALS])(
    "%s still passes a correct target",
    async (id) => {
      sandbox = await startSandbox({ port: 0 });
      const result = await run(id, targetOf({ ...sandbox, audience: sandbox.baseUrl }));
      expect(result.status, result.message).toBe("PASS");
    },
  );
});

describe("rotation checks judge the old secret and the old token on refusals only", () => {
  async function rotated(answer: OddAnswer) {
    front = await startOddRefusalServer(answer);
    const oldToken = await front.sandbox.issueToken("sandbox-demo");
    const after = await front.sandbox.rotateSecret("sandbox-demo", { overlapSeconds: 0, revokeTokens: true });
    return { oldToken, newSecret: after.clientSecret };
  }

  async function runRotation(
    id: string,
    target: Target,
    expectations: Omit<RotationExpectations, "oldSecret" | "oldToken">,
    oldToken: string,
  ): Promise<CheckResult> {
    const checks = rotationChecks({
      oldSecret: new Secret("sandbox-demo-secret"),
      oldToken: new Secret(oldToken),
      ...expectations,
    });
    const check = checks.find((candidate) => candidate.id === id);
    if (check === undefined) throw new Error(`no check ${id}`);
    const events = createEventGenerator({ seed: 7, runId: "premises", referencePrefix: "eah-premises-" });
    return executeCheck(
      check,
      new Probe({
        target,
        redactor: new Redactor(),
        nextEvent: () => events.next(),
        eventBreakers: INVALID_VARIANTS,
      }),
    );
  }

  it.each(Object.keys(ODD_ANSWERS) as OddAnswer[])(
    "a target answering %s for the old secret and the old token does not pass 'refused' and 'revoked'",
    async (answer) => {
      const { oldToken, newSecret } = await rotated(answer);
      const target = targetOf(
        { ...(front as OddRefusalServer), audience: front?.sandbox.baseUrl ?? "" },
        newSecret,
      );
      const expect_ = { expectOld: "refused", expectOldTokens: "revoked" } as const;
      const oldSecret = await runRotation("rotation.old-secret", target, expect_, oldToken);
      const oldTokens = await runRotation("rotation.old-tokens", target, expect_, oldToken);
      expect(oldSecret.status, oldSecret.message).toBe("FAIL");
      // RFC 6750 §3.1 refuses a token with 401 or 403: only the old secret's 403 is not its refusal.
      expect(oldTokens.status, oldTokens.message).toBe(answer === "403" ? "PASS" : "FAIL");
    },
  );

  it("SKIPs both when the new secret gets no token: the old one's refusal proves nothing", async () => {
    const { oldToken } = await rotated("404");
    sandbox = front?.sandbox;
    const target = targetOf(
      { ...(front as OddRefusalServer), audience: front?.sandbox.baseUrl ?? "" },
      "wrong",
    );
    for (const id of ["rotation.old-secret", "rotation.old-tokens"]) {
      const result = await runRotation(
        id,
        target,
        { expectOld: "refused", expectOldTokens: "revoked" },
        oldToken,
      );
      expect(result.status, result.message).toBe("SKIP");
      expect(result.message).toMatch(/premise failed: .*404/);
    }
    sandbox = undefined;
  });
});

describe("lifetime.idle-expires", () => {
  it("fails a target that answers 404, not 401, to the idle token", { timeout: 30_000 }, async () => {
    front = await startOddRefusalServer("404", { expiresIn: 1 });
    const result = await run(
      "lifetime.idle-expires",
      targetOf({ ...front, audience: front.sandbox.baseUrl }),
    );
    expect(result.status, result.message).toBe("FAIL");
    expect(result.message).toContain("404");
  });
});
