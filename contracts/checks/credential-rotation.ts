import { Undecidable } from "../../core/index.ts";
import type { Secret } from "../../transport/index.ts";
import { isSuccess } from "../probe/http-request.ts";
import type { CheckDefinition, CheckLevel } from "./check.ts";
import { broken, defineCheck, holds, observed, skipped } from "./check.ts";
import { accessTokenOf, describeResponse, jsonObject } from "./describe.ts";
import { oldTokenState } from "./old-token-state.ts";
import { premiseAcceptedEvent, premiseIssuedToken, premiseToken } from "./premise.ts";
import { describeRefusal, INVALID_CLIENT, isRefusal, REFUSED_TOKEN } from "./refusal.ts";

/** What the user says the rotation did; unstated expectations are only observed (INFO). */
export interface RotationExpectations {
  /** The secret in use before the rotation, when the user gives it. */
  readonly oldSecret?: Secret;
  /** A token obtained with the old secret before the rotation, when the user gives it. */
  readonly oldToken?: Secret;
  readonly expectOld?: "refused" | "accepted";
  readonly expectOldTokens?: "valid" | "revoked";
}

const levelFor = (expectation: string | undefined): CheckLevel =>
  expectation === undefined ? "INFO" : "MUST";

/** The rotation checks for one verification, built from what the user stated. */
export function rotationChecks(expected: RotationExpectations): CheckDefinition[] {
  const newSecretWorks = defineCheck({
    id: "rotation.new-secret",
    title: "The new secret yields a token, and that token creates an event",
    area: "rotation",
    level: "MUST",
    rule: "Authentication rules 1 and 3, with the rotated credentials",
    profile: "fast",
    async run(probe) {
      const response = await probe.exchange("token request with the new secret", probe.tokenRequest());
      const token = accessTokenOf(response);
      const said = describeResponse(response, probe.redactor);
      if (token === undefined) return broken(`expected an access token for the new secret, received ${said}`);
      const created = await probe.postEvent("create an event with the new secret's token", token);
      if (!isSuccess(created.status)) {
        return broken(
          `the new secret's token was not accepted: ${describeResponse(created, probe.redactor)}`,
        );
      }
      return holds(`token issued (${response.status}) and event accepted (${created.status})`);
    },
  });

  const oldSecret = defineCheck({
    id: "rotation.old-secret",
    title: `The old secret is ${expected.expectOld ?? "refused or accepted (observed)"}`,
    area: "rotation",
    level: levelFor(expected.expectOld),
    rule:
      expected.expectOld === undefined
        ? "Rotation: observed"
        : `Rotation: the user expects the old secret ${expected.expectOld}`,
    profile: "fast",
    async run(probe) {
      if (expected.oldSecret === undefined)
        return skipped("no old secret given (EVENT_API_OLD_CLIENT_SECRET)");
      // A refusal of the old secret proves something only where the new one gets a token.
      await premiseToken(probe);
      const response = await probe.exchange(
        "token request with the old secret",
        probe.tokenRequest({ client_secret: expected.oldSecret.reveal() }),
      );
      const said = describeResponse(response, probe.redactor);
      const reality =
        accessTokenOf(response) !== undefined
          ? "accepted"
          : isRefusal(response, INVALID_CLIENT)
            ? "refused"
            : undefined;
      if (reality === undefined) {
        const neither = `neither a token nor a refusal, ${describeRefusal(INVALID_CLIENT)}: ${said}`;
        if (expected.expectOld === undefined) return observed(`the old secret got ${neither}`);
        return broken(`expected the old secret to be ${expected.expectOld}, but it got ${neither}`);
      }
      const error = jsonObject(response)?.error;
      const detail = reality === "accepted" ? `a token was issued (${response.status})` : said;
      if (expected.expectOld === undefined) return observed(`the old secret is ${reality}: ${detail}`);
      if (reality !== expected.expectOld)
        return broken(
          `expected the old secret to be ${expected.expectOld}, but it was ${reality}: ${detail}`,
        );
      const code =
        reality === "refused" && error !== "invalid_client"
          ? ` (RFC 6749 §5.2 would say invalid_client, got ${probe.quote(error)})`
          : "";
      return holds(`the old secret is ${reality}: ${detail}${code}`);
    },
  });

  const oldTokens = defineCheck({
    id: "rotation.old-tokens",
    title: `Tokens issued before the rotation are ${expected.expectOldTokens ?? "valid or revoked (observed)"}`,
    area: "rotation",
    level: levelFor(expected.expectOldTokens),
    rule:
      expected.expectOldTokens === undefined
        ? "Rotation: observed"
        : `Rotation: the user expects earlier tokens to be ${expected.expectOldTokens}`,
    profile: "fast",
    async run(probe) {
      if (expected.oldToken === undefined) {
        return skipped("no token from before the rotation given (EVENT_API_OLD_ACCESS_TOKEN)");
      }
      const token = expected.oldToken.reveal();
      probe.redactor.addToken(token, "<OLD_ACCESS_TOKEN>");
      // A rejected old token proves something only where a fresh token gets the same valid request in.
      const fresh = await premiseIssuedToken(probe);
      await premiseAcceptedEvent(probe, fresh.accessToken);
      const response = await probe.postEvent("create an event with a token from before the rotation", token);
      const said = describeResponse(response, probe.redactor);
      if (isSuccess(response.status)) {
        if (expected.expectOldTokens === undefined) return observed(`the earlier token is valid: ${said}`);
        if (expected.expectOldTokens === "revoked") {
          return broken(`expected the earlier token to be revoked, but it is valid: ${said}`);
        }
        return holds(`the earlier token is valid (${response.status})`);
      }
      if (!isRefusal(response, REFUSED_TOKEN)) {
        const neither = `neither accepted nor refused, ${describeRefusal(REFUSED_TOKEN)}: ${said}`;
        if (expected.expectOldTokens === undefined) return observed(`the earlier token was ${neither}`);
        return broken(`expected the earlier token to be ${expected.expectOldTokens}, but it was ${neither}`);
      }
      // A refusal is a revocation only when the token had not simply outlived its lifetime.
      const age = oldTokenState(token, response, Date.now(), fresh.expiresIn, (text) => probe.quote(text));
      if (age.state === "expired") {
        const expired = `the earlier token had expired, not been revoked (${age.why})`;
        if (expected.expectOldTokens === undefined) return observed(`${expired}: ${said}`);
        throw new Undecidable(
          `${expired}, so its refusal says nothing about the rotation: give a token taken just before rotating`,
        );
      }
      if (age.state === "unknown") {
        const either = `the earlier token was refused, but expired and revoked cannot be told apart (${age.why})`;
        if (expected.expectOldTokens === undefined) return observed(`${either}: ${said}`);
        throw new Undecidable(`${either}; give a token taken just before rotating`);
      }
      if (expected.expectOldTokens === undefined)
        return observed(`the earlier token is revoked (${age.why}): ${said}`);
      if (expected.expectOldTokens === "valid") {
        return broken(`expected the earlier token to be valid, but it is revoked (${age.why}): ${said}`);
      }
      return holds(`the earlier token is revoked (${response.status}; ${age.why})`);
    },
  });

  return [newSecretWorks, oldSecret, oldTokens];
}
