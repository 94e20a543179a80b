import {
  BEARER_CHECKS,
  bearerAlgNone,
  bearerChallenge,
  bearerForeignKey,
  bearerGarbage,
  bearerMissing,
  bearerNoSideEffect,
  bearerOtherScheme,
  bearerTampered,
  bearerTruncated,
} from "../../../contracts/checks/bearer-requirement.ts";
import type { CheckDefinition, CheckStatus } from "../../../contracts/index.ts";
import type { FaultName } from "../../../sandbox/index.ts";
import { runCheckOn } from "../../support/contract-checks.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { startInterposingServer } from "../../support/interposing-server.ts";

const REFUSAL = "400, 401 or 403 \\(RFC 6750 §3\\.1\\)";

describe("the bearer requirement checks", () => {
  it("pass every one against the correct sandbox", async ({ sandbox }) => {
    const target = await sandbox();
    const messages: Record<string, string> = {};
    for (const check of BEARER_CHECKS) {
      const result = await runCheckOn(check, target);
      expect(result.status, `${check.id}: ${result.message}`).toBe("PASS");
      messages[check.id] = result.message;
    }
    expect(Object.keys(messages)).toHaveLength(9);
    expect(messages["bearer.missing"]).toBe("rejected with 401");
    expect(messages["bearer.challenge"]).toBe("401 with a Bearer challenge");
    expect(messages["bearer.no-side-effect"]).toMatch(
      /^no event was stored: the reference was still free \(20\d\), then refused as a duplicate \(409\)$/,
    );
  });

  const faulted: ReadonlyArray<readonly [FaultName, CheckDefinition, CheckStatus, RegExp]> = [
    [
      "bearer-not-required",
      bearerMissing,
      "FAIL",
      /^expected no Authorization header to be rejected, but it was accepted: 20\d /,
    ],
    [
      "bearer-any-token",
      bearerGarbage,
      "FAIL",
      /^expected a garbage bearer token to be rejected, but it was/,
    ],
    ["bearer-any-token", bearerTruncated, "FAIL", /^expected a truncated token to be rejected/],
    ["bearer-signature-unchecked", bearerTampered, "FAIL", /payload was changed after signing .* accepted/],
    ["bearer-signature-unchecked", bearerForeignKey, "FAIL", /foreign key under the real kid .* accepted/],
    ["bearer-alg-none", bearerAlgNone, "FAIL", /^expected an unsigned \(alg: none\) token to be rejected/],
    ["bearer-any-scheme", bearerOtherScheme, "FAIL", /under the scheme 'Token' to be rejected, but it was/],
    [
      "bearer-no-www-authenticate",
      bearerChallenge,
      "WARN",
      /^no Authorization header: expected WWW-Authenticate: Bearer, received "\(none\)"/,
    ],
    ["bearer-rejected-stored", bearerNoSideEffect, "FAIL", /^the rejected request created the event/],
    [
      "bearer-5xx",
      bearerGarbage,
      "FAIL",
      new RegExp(`^expected a garbage bearer token to be rejected, ${REFUSAL}, received 500 `),
    ],
  ];

  it.for(
    faulted.map(([fault, check, status, message]) => [fault, check.id, status, check, message] as const),
  )("%s: %s is %s", async ([fault, , status, check, message], { sandbox }) => {
    const result = await runCheckOn(check, await sandbox([fault]));
    expect(result.status, result.message).toBe(status);
    expect(result.message).toMatch(message);
  });

  it("SKIPs the forgeries when the target's tokens are not JWS: nothing to forge from", async ({
    sandbox,
  }) => {
    const target = await sandbox(["token-opaque"]);
    for (const check of [bearerTampered, bearerAlgNone, bearerForeignKey]) {
      const result = await runCheckOn(check, target);
      expect(result.status, check.id).toBe("SKIP");
      expect(result.message).toBe(
        "the target's tokens are not JWS, so none can be forged from one (see token.signed)",
      );
    }
  });

  it("SKIPs a rejection that proves nothing: the valid event was not accepted at that URL either", async ({
    sandbox,
  }) => {
    const target = await sandbox();
    const result = await runCheckOn(bearerGarbage, target, { baseUrl: `${target.baseUrl}/nowhere` });
    expect(result.status).toBe("SKIP");
    expect(result.message).toMatch(
      /^premise failed: a valid event with a valid token was not accepted \(404 /,
    );
  });

  it("fails a 404 for a bad token, and cannot decide on a 429", async ({ sandbox, onTestFinished }) => {
    const target = await sandbox();
    let answer = 404;
    // The garbage token is the only Authorization that is neither the real token nor absent.
    const garbageFront = await startInterposingServer(
      new URL(target.baseUrl).origin,
      (_method, path, headers) => {
        const authorization = headers.authorization ?? "";
        return path.endsWith("/events") && authorization !== "" && !authorization.includes(".")
          ? { status: answer, headers: { "content-type": "text/plain" }, body: "nope" }
          : undefined;
      },
    );
    onTestFinished(() => garbageFront.close());
    const via = { baseUrl: garbageFront.url(target.baseUrl), tokenUrl: garbageFront.url(target.tokenUrl) };
    const notFound = await runCheckOn(bearerGarbage, target, via);
    expect(notFound.status).toBe("FAIL");
    expect(notFound.message).toBe(
      `expected a garbage bearer token to be rejected, 400, 401 or 403 (RFC 6750 §3.1), received 404 text/plain nope`,
    );
    answer = 429;
    const limited = await runCheckOn(bearerGarbage, target, via);
    expect(limited.status).toBe("ERROR");
    expect(limited.message).toBe(
      "could not decide: the target answered 429 (too many requests) instead of judging the request",
    );
  });

  it('warns on a Bearer challenge without error="invalid_token" for a bad token', async ({
    sandbox,
    onTestFinished,
  }) => {
    const target = await sandbox();
    const front = await startInterposingServer(new URL(target.baseUrl).origin, (_method, path) =>
      path.endsWith("/events")
        ? { status: 401, headers: { "www-authenticate": 'Bearer realm="api"' }, body: "" }
        : undefined,
    );
    onTestFinished(() => front.close());
    const result = await runCheckOn(bearerChallenge, target, { baseUrl: front.url(target.baseUrl) });
    expect(result.status).toBe("WARN");
    expect(result.message).toBe(
      'a garbage bearer token: expected error="invalid_token" in "Bearer realm="api""',
    );
  });

  it("SKIPs the side-effect probe where a rejected event or a duplicate cannot be told apart", async ({
    sandbox,
    onTestFinished,
  }) => {
    const target = await sandbox();
    let acceptAll = true;
    // A JWS carries dots; the garbage token does not: only valid tokens are answered here when acceptAll is off.
    const front = await startInterposingServer(new URL(target.baseUrl).origin, (_method, path, headers) =>
      path.endsWith("/events") && (acceptAll || (headers.authorization ?? "").includes("."))
        ? { status: 202, headers: { "content-type": "application/json" }, body: "{}" }
        : undefined,
    );
    onTestFinished(() => front.close());
    const via = { baseUrl: front.url(target.baseUrl) };
    const unauthenticated = await runCheckOn(bearerNoSideEffect, target, via);
    expect([unauthenticated.status, unauthenticated.message]).toEqual([
      "SKIP",
      "the unauthenticated request was accepted (see bearer.garbage)",
    ]);
    acceptAll = false;
    const duplicates = await runCheckOn(bearerNoSideEffect, target, via);
    expect([duplicates.status, duplicates.message]).toEqual([
      "SKIP",
      "the target accepts duplicate references, so a stored rejected event cannot be observed",
    ]);
  });
});
