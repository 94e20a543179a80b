import { decodeJwt } from "jose";
import { UndecidableError } from "../../core/index.ts";
import type { Secret } from "../../transport/index.ts";
import { isSuccess } from "../probe/http-request.ts";
import type { CheckDefinition, CheckLevel } from "./check.ts";
import { broken, caveat, defineCheck, holds, observed, skipped } from "./check.ts";
import { accessTokenOf, describeResponse, jsonObject } from "./describe.ts";
import { introspectOldToken, type OldTokenIntrospection } from "./old-token-introspection.ts";
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

/** What an introspection adds where a refusal stays ambiguous: an inactive answer gives no reason (RFC 7662 §2.2). */
function introspectionSays(introspected: OldTokenIntrospection): string {
  return introspected.state === "inactive"
    ? `${introspected.why}, which an expired and a revoked token both get`
    : introspected.why;
}

/** ", at its exp …" for a JWT, nothing for a token that carries no readable exp. */
function expiryOf(token: string): string {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" ? ` (its exp: ${new Date(exp * 1000).toISOString()})` : "";
  } catch {
    return "";
  }
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
      const introspected = await introspectOldToken(probe, token, fresh.accessToken);
      if (isSuccess(response.status)) {
        if (introspected?.state === "inactive") {
          // The server revoked it and the API took it all the same: the API's own design, named, never a pass or a fail.
          const choice =
            `the authorization server revoked it (${introspected.why}), but the API still accepts it (${response.status}): ` +
            `the API checks the token itself, not whether it was revoked, so it works until it expires${expiryOf(token)}; ` +
            "that is the API's choice (an API that introspects refuses it at once)";
          if (expected.expectOldTokens === undefined) return observed(choice);
          return caveat(
            `${expected.expectOldTokens === "revoked" ? "revoked by the server, not by the API" : "valid at the API, but revoked by the server"}: ${choice}`,
          );
        }
        if (expected.expectOldTokens === undefined) return observed(`the earlier token is valid: ${said}`);
        if (expected.expectOldTokens === "revoked") {
          const unasked =
            introspected === undefined
              ? "; if the server did revoke it, the API checks tokens by their signature alone, which an --issuer whose metadata names an introspection_endpoint lets the harness tell"
              : introspected.state === "unusable"
                ? `; whether the server revoked it is not known: ${introspected.why}`
                : "";
          return broken(`expected the earlier token to be revoked, but it is valid: ${said}${unasked}`);
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
        throw new UndecidableError(
          `${expired}, so its refusal says nothing about the rotation: give a token taken just before rotating`,
        );
      }
      if (introspected?.state === "active") {
        // The server still vouches for the token: the refusal is the API's own doing.
        const own = `the API refuses it (${response.status}) although ${introspected.why.replace("calls it active", "still calls it active")}: the refusal is the API's own, not a revocation by the server`;
        if (expected.expectOldTokens === undefined) return observed(`${own}: ${said}`);
        if (expected.expectOldTokens === "valid") {
          return broken(`expected the earlier token to be valid, but ${own}: ${said}`);
        }
        return holds(`the earlier token is refused (${response.status}); ${own}`);
      }
      if (age.state === "unknown") {
        const asked = introspected === undefined ? "" : `; ${introspectionSays(introspected)}`;
        const either = `the earlier token was refused, but expired and revoked cannot be told apart (${age.why}${asked})`;
        if (expected.expectOldTokens === undefined) return observed(`${either}: ${said}`);
        throw new UndecidableError(`${either}; give a token taken just before rotating`);
      }
      const why = introspected?.state === "inactive" ? `${age.why}; ${introspected.why}` : age.why;
      if (expected.expectOldTokens === undefined)
        return observed(`the earlier token is revoked (${why}): ${said}`);
      if (expected.expectOldTokens === "valid") {
        return broken(`expected the earlier token to be valid, but it is revoked (${why}): ${said}`);
      }
      return holds(`the earlier token is revoked (${response.status}; ${why})`);
    },
  });

  return [newSecretWorks, oldSecret, oldTokens];
}
