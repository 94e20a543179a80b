import { CannotRunError } from "../../core/index.ts";
import type { ClientAuth, Redactor, Target } from "../../transport/index.ts";
import { inertText, oauthErrorOf } from "../../transport/index.ts";
import { displayUrl } from "../load/display-url.ts";
import { excerpt } from "./answer-excerpt.ts";
import { answerKind } from "./answer-kind.ts";
import type { PreflightCredential, TokenAttempt } from "./token-attempt.ts";
import { attemptToken } from "./token-attempt.ts";

type Answer = Extract<TokenAttempt, { kind: "answer" }>;

/** The token form fields that say which API a token is for; a server may refuse either when it does not know it. */
type TargetField = "audience" | "resource";
const TARGET_FIELDS: readonly TargetField[] = ["audience", "resource"];

/** RFC 8707's code for a resource the server does not serve (the sandbox's for an audience), and Entra v1's. */
const TARGET_ERRORS = new Set(["invalid_target", "invalid_resource"]);

/**
 * The fields the server's own words blame: its error_description names the field, or the value sent in it (Hydra,
 * Auth0 and Entra word a refusal so).
 */
function blamedFields(answer: Answer, target: Target, sent: readonly TargetField[]): TargetField[] {
  const description = oauthErrorOf(answer.text)?.description?.toLowerCase() ?? "";
  return sent.filter(
    (field) =>
      new RegExp(`\\b${field}\\b`).test(description) ||
      description.includes(sentValue(target, field).toLowerCase()),
  );
}

/** The value a field carries; only sent fields are asked for. */
function sentValue(target: Target, field: TargetField): string {
  return target[field] ?? "";
}

/** The target without the given fields: its token requests leave them out. */
function withoutFields(target: Target, fields: readonly TargetField[]): Target {
  const { audience, resource, ...rest } = target;
  return {
    ...rest,
    ...(audience === undefined || fields.includes("audience") ? {} : { audience }),
    ...(resource === undefined || fields.includes("resource") ? {} : { resource }),
  };
}

/** What was sent in a field and which option set it. */
function fieldClause(target: Target, field: TargetField, show: (value: string) => string): string {
  const value = sentValue(target, field);
  if (field === "resource") return `the resource ${show(value)} (--resource)`;
  return value === target.baseUrl
    ? `the audience ${show(value)} (the base URL, which is the audience unless --audience sets one)`
    : `the audience ${show(value)} (--audience)`;
}

/** How to change each field, in the user's options (a config file has the same keys). */
function advice(target: Target, fields: readonly TargetField[]): string {
  const ways: string[] = [];
  if (fields.includes("audience")) {
    if (target.audience === target.baseUrl) ways.push("check --base-url (events go to {base-url}/events)");
    ways.push(
      'give --audience the identifier the server registers for this API, or --audience none ("audience": "none" in a config file) to send none',
    );
  }
  if (fields.includes("resource")) {
    ways.push("give --resource the identifier the server registers for this API, or leave --resource out");
  }
  return ways.join("; ");
}

/**
 * A token request refused for the API it names rather than for the client: a 400 or 403 whose words point at the
 * audience or resource, or one that the same request without them turns into a token. Said once, before any check,
 * with the values sent, the option each came from and how to change it; undefined for any other refusal.
 */
export async function refusedTarget(
  target: Target,
  credential: PreflightCredential,
  clientAuth: ClientAuth,
  answer: Answer,
  redactor: Redactor,
  signal: AbortSignal,
): Promise<CannotRunError | undefined> {
  const sent = TARGET_FIELDS.filter((field) => target[field] !== undefined);
  if (sent.length === 0 || (answer.status !== 400 && answer.status !== 403)) return undefined;
  const blamed = blamedFields(answer, target, sent);
  const suspects = blamed.length > 0 ? blamed : sent;
  // The same request without the suspects: a token then proves the refusal was theirs, whatever the server said.
  const retried = await attemptToken(withoutFields(target, suspects), credential, clientAuth, signal);
  const kindWithout = retried.kind === "answer" ? answerKind(retried).kind : undefined;
  const tokenWithout = kindWithout === "token" || kindWithout === "bad-lifetime";
  const targetError = TARGET_ERRORS.has(oauthErrorOf(answer.text)?.error ?? "");
  if (!tokenWithout && blamed.length === 0 && !targetError) return undefined;
  const show = (value: string) => redactor.redact(inertText(value));
  return new CannotRunError(
    `the token endpoint ${displayUrl(target.tokenUrl)} refused ${suspects.map((field) => fieldClause(target, field, show)).join(" or ")} ` +
      `for client ${inertText(credential.clientId)}: it answered ${excerpt(answer, redactor)}` +
      (tokenWithout
        ? `, and gave a token to the same request without ${suspects.length === 1 ? "it" : "them"}`
        : "") +
      `; ${advice(target, suspects)}`,
  );
}
