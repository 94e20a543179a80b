import { challengesOf } from "../probe/auth-challenges.ts";
import type { JwsParts } from "../probe/forged-tokens.ts";
import {
  algNoneToken,
  foreignKeyToken,
  garbageToken,
  parseJws,
  tamperedToken,
  truncatedToken,
} from "../probe/forged-tokens.ts";
import type { HttpResponse } from "../probe/http-request.ts";
import { isClientError, isSuccess } from "../probe/http-request.ts";
import type { Probe } from "../probe/probe.ts";
import type { CheckDefinition, Finding } from "./check.ts";
import { broken, defineCheck, holds, skipped } from "./check.ts";
import { describeResponse } from "./describe.ts";
import { premiseAcceptedEvent, premiseToken } from "./premise.ts";
import { BEARER_REFUSAL, describeRefusal, isRefusal } from "./refusal.ts";

/**
 * A request without valid credentials must be refused as RFC 6750 §3.1 says (400 invalid_request, 401
 * invalid_token, 403): a 2xx lets it in, and a 404, 405 or other status refuses nothing.
 */
function rejection(probe: Probe, response: HttpResponse, what: string): Finding {
  const said = describeResponse(response, probe.redactor);
  if (isSuccess(response.status))
    return broken(`expected ${what} to be rejected, but it was accepted: ${said}`);
  if (!isRefusal(response, BEARER_REFUSAL))
    return broken(`expected ${what} to be rejected, ${describeRefusal(BEARER_REFUSAL)}, received ${said}`);
  return holds(`rejected with ${response.status}`);
}

/** Builds a bearer check: derive an Authorization value (from a real token when needed), send it, expect refusal. */
function bearerCheck(options: {
  id: string;
  title: string;
  what: string;
  authorization: (probe: Probe) => Promise<string | undefined>;
}): CheckDefinition {
  return defineCheck({
    id: options.id,
    title: options.title,
    area: "bearer",
    level: "MUST",
    rule: "Authentication rule 3",
    profile: "fast",
    async run(probe) {
      // A rejection proves something only where a valid token gets a valid event in at the same URL.
      await premiseAcceptedEvent(probe, await premiseToken(probe));
      const authorization = await options.authorization(probe);
      const response = await probe.exchange(
        `create an event with ${options.what}`,
        probe.eventRequest(authorization),
        { serverErrors: "report" },
      );
      return rejection(probe, response, options.what);
    },
  });
}

async function realJws(probe: Probe): Promise<JwsParts | "opaque"> {
  const { accessToken } = await probe.obtainToken("obtain a real token to derive the probe from");
  return parseJws(accessToken) ?? "opaque";
}

/** A JWS-based forgery needs a JWS to start from; an opaque token is token.signed's failure, not this check's. */
function forged(make: (parts: JwsParts) => string | Promise<string>) {
  return async (probe: Probe): Promise<string> => {
    const parts = await realJws(probe);
    if (parts === "opaque") throw new ForgeryUnavailableError();
    return `Bearer ${await make(parts)}`;
  };
}

// Private control flow, not a harness error: withForgery below catches it, so it never leaves this file.
class ForgeryUnavailableError extends Error {}

function withForgery(check: CheckDefinition): CheckDefinition {
  return {
    ...check,
    async run(probe) {
      try {
        return await check.run(probe);
      } catch (error) {
        if (error instanceof ForgeryUnavailableError) {
          return skipped(
            "the target's tokens are not JWS, so none can be forged from one (see token.signed)",
          );
        }
        throw error;
      }
    },
  };
}

export const bearerMissing = bearerCheck({
  id: "bearer.missing",
  title: "A request without Authorization is rejected",
  what: "no Authorization header",
  authorization: async () => undefined,
});

export const bearerGarbage = bearerCheck({
  id: "bearer.garbage",
  title: "A garbage bearer token is rejected",
  what: "a garbage bearer token",
  authorization: async () => `Bearer ${garbageToken()}`,
});

export const bearerOtherScheme = bearerCheck({
  id: "bearer.other-scheme",
  title: "A valid token under another scheme is rejected",
  what: "a valid token under the scheme 'Token'",
  authorization: async (probe) => `Token ${(await probe.obtainToken()).accessToken}`,
});

export const bearerTruncated = bearerCheck({
  id: "bearer.truncated",
  title: "A truncated token is rejected",
  what: "a truncated token",
  authorization: async (probe) => `Bearer ${truncatedToken((await probe.obtainToken()).accessToken)}`,
});

export const bearerTampered = withForgery(
  bearerCheck({
    id: "bearer.tampered",
    title: "A token with a tampered payload is rejected",
    what: "a token whose payload was changed after signing",
    authorization: forged(tamperedToken),
  }),
);

export const bearerAlgNone = withForgery(
  bearerCheck({
    id: "bearer.alg-none",
    title: "An alg:none re-encoding of a real token's claims is rejected",
    what: "an unsigned (alg: none) token",
    authorization: forged(algNoneToken),
  }),
);

export const bearerForeignKey = withForgery(
  bearerCheck({
    id: "bearer.foreign-key",
    title: "A token signed with a key the harness made up is rejected",
    what: "a token signed with a foreign key under the real kid",
    authorization: forged(foreignKeyToken),
  }),
);

export const bearerChallenge = defineCheck({
  id: "bearer.challenge",
  title: 'Rejections are 401 with WWW-Authenticate: Bearer (error="invalid_token" for a bad token)',
  area: "bearer",
  level: "SHOULD",
  rule: "RFC 6750 §3",
  profile: "fast",
  async run(probe) {
    const problems: string[] = [];
    const cases = [
      ["no Authorization header", undefined, false],
      ["a garbage bearer token", `Bearer ${garbageToken()}`, true],
    ] as const;
    for (const [what, authorization, needsError] of cases) {
      const response = await probe.exchange(
        `create an event with ${what}`,
        probe.eventRequest(authorization),
      );
      const challenge = response.headers["www-authenticate"] ?? "";
      // RFC 9110 §11.6.1: a 401 may offer several challenges (gateways put Basic or Negotiate first).
      const bearers = challengesOf(challenge, "Bearer");
      if (response.status !== 401) problems.push(`${what}: expected 401, received ${response.status}`);
      else if (bearers.length === 0) {
        problems.push(
          `${what}: expected WWW-Authenticate: Bearer, received "${probe.quote(challenge) || "(none)"}"`,
        );
      } else if (needsError && !bearers.some((bearer) => bearer.params.get("error") === "invalid_token")) {
        problems.push(`${what}: expected error="invalid_token" in "${probe.quote(challenge)}"`);
      }
    }
    return problems.length > 0 ? broken(problems.join("; ")) : holds("401 with a Bearer challenge");
  },
});

export const bearerNoSideEffect = defineCheck({
  id: "bearer.no-side-effect",
  title: "A rejected request creates no event",
  area: "bearer",
  level: "MUST",
  rule: "Authentication rule 3",
  profile: "fast",
  async run(probe) {
    const event = probe.newEvent();
    const rejected = await probe.exchange(
      "create an event with a garbage token",
      probe.eventRequest(`Bearer ${garbageToken()}`, event),
    );
    if (isSuccess(rejected.status))
      return skipped("the unauthenticated request was accepted (see bearer.garbage)");
    // Whether the rejected event was stored shows through the target's duplicate-reference rule.
    const { accessToken } = await probe.obtainToken();
    const first = await probe.postEvent("resubmit the same event with a valid token", accessToken, event);
    const said = describeResponse(first, probe.redactor);
    if (first.status === 409) {
      return broken(
        `the rejected request created the event: resubmitting its reference with a valid token was refused as a duplicate (${said})`,
      );
    }
    if (!isSuccess(first.status))
      return skipped(`a valid event was not accepted (${said}; see events.accepted)`);
    const again = await probe.postEvent(
      "resubmit it once more, to see whether duplicates are detected",
      accessToken,
      event,
    );
    if (isSuccess(again.status)) {
      return skipped(
        "the target accepts duplicate references, so a stored rejected event cannot be observed",
      );
    }
    // Only a 4xx is a refusal; a 5xx was already a FAIL (Probe.exchange), anything else proves nothing.
    if (!isClientError(again.status)) {
      return skipped(
        `the duplicate got ${describeResponse(again, probe.redactor)}: neither accepted nor refused`,
      );
    }
    return holds(
      `no event was stored: the reference was still free (${first.status}), then refused as a duplicate (${again.status})`,
    );
  },
});

export const BEARER_CHECKS = [
  bearerMissing,
  bearerGarbage,
  bearerOtherScheme,
  bearerTruncated,
  bearerTampered,
  bearerAlgNone,
  bearerForeignKey,
  bearerChallenge,
  bearerNoSideEffect,
] as const;
