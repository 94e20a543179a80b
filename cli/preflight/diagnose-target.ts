import { request } from "undici";
import { CannotRunError } from "../../core/index.ts";
import { lifetimeProblem } from "../../domain/index.ts";
import {
  describeRedirect,
  isRedirect,
  proxyFor,
  undiciDispatcher,
} from "../../transport/connection/index.ts";
import { requestDeadline } from "../../transport/deadline/index.ts";
import { discoverTokenEndpoint } from "../../transport/discovery/index.ts";
import type { ClientAuth, Redactor, Target } from "../../transport/index.ts";
import { describeOAuthError, eventsUrl, inertText, oauthErrorOf } from "../../transport/index.ts";
import { viaProxy } from "../connection-failure.ts";
import { displayUrl } from "../load/display-url.ts";
import { EXCERPT_CHARS, excerpt } from "./answer-excerpt.ts";
import type { ParsedToken } from "./answer-kind.ts";
import { answerKind } from "./answer-kind.ts";
import { refusedTarget } from "./refused-target.ts";
import type { PreflightCredential, TokenAttempt } from "./token-attempt.ts";
import { attemptToken } from "./token-attempt.ts";
import { tokenUrlHint } from "./token-url-hint.ts";
import { isConnectFailure, unreachableReason } from "./unreachable-reason.ts";

/** The settings worked: with this client authentication, which may not be the one configured. */
export interface TargetReady {
  readonly clientAuth: ClientAuth;
  /** The configured client authentication, when its credentials were refused and `clientAuth` worked instead. */
  readonly refusedClientAuth?: ClientAuth;
  /**
   * The other client authentication, when the given one (binding, kept as `clientAuth`) was refused and this one
   * got a token: said, never switched to.
   */
  readonly worksWith?: ClientAuth;
  /** The token the preflight got; absent when the answer was left to the checks to judge. */
  readonly token?: ParsedToken;
}

export interface PreflightOptions {
  /** A load needs a token to start: any answer without one stops it. The contract suite judges such answers itself. */
  readonly requireToken: boolean;
}

type Answer = Extract<TokenAttempt, { kind: "answer" }>;

const OTHER: Record<ClientAuth, ClientAuth> = { post: "basic", basic: "post" };

/** "127.0.0.1:9": where a request went, with the scheme's port when the URL names none. */
function hostPort(raw: string): string {
  const url = new URL(raw);
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

function unreachable(
  what: string,
  url: string,
  target: Target,
  failure: { readonly reason: string; readonly connectFailed: boolean },
): CannotRunError {
  const proxy = proxyFor(url, target.connection.proxy);
  // Through a proxy, a refused or unknown first hop is the proxy: naming the target's host would send the user astray.
  const where =
    proxy !== undefined && failure.connectFailed
      ? `the proxy ${hostPort(proxy)} could not be reached: ${failure.reason}`
      : `${hostPort(url)}: ${failure.reason}`;
  return new CannotRunError(
    `cannot reach the ${what} ${displayUrl(url)}${viaProxy(url, target.connection)} (${where})`,
  );
}

/** "401 invalid_client": the status and, when the answer is an OAuth error, its code; a refusal needs no more. */
function statusAndCode(answer: Answer, redactor: Redactor): string {
  const oauthError = oauthErrorOf(answer.text);
  return oauthError === undefined
    ? String(answer.status)
    : `${answer.status} ${describeOAuthError({ error: oauthError.error, description: undefined }, redactor)}`;
}

function isDowngrade(from: string, to: string): boolean {
  return new URL(from).protocol === "https:" && new URL(to).protocol !== "https:";
}

/** A token the harness cannot time: the target's fault, said with its answer quoted inert (exit 3, nothing run). */
function badLifetime(
  target: Target,
  client: string,
  body: Readonly<Record<string, unknown>>,
  redactor: Redactor,
): CannotRunError {
  // A target may echo the token anywhere in its answer: hidden before anything of it is quoted, or nothing quoted.
  if (typeof body.access_token === "string") {
    const refusal = redactor.tokenRefusal(body.access_token);
    if (refusal !== undefined) {
      return new CannotRunError(
        `the token endpoint ${displayUrl(target.tokenUrl)} gave client ${client} an access token that ${refusal}`,
      );
    }
    redactor.addToken(body.access_token, "<ACCESS_TOKEN>");
  }
  const quote = (value: unknown) => {
    const raw = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
    const { text, cut } = redactor.untrustedPrefix(raw, EXCERPT_CHARS);
    return cut ? `${text}…` : text;
  };
  return new CannotRunError(
    `the token endpoint ${displayUrl(target.tokenUrl)} gave client ${client} a token without a usable lifetime: ${lifetimeProblem(body, quote)}`,
  );
}

async function notTokenEndpoint(
  target: Target,
  answer: Answer,
  redactor: Redactor,
  signal: AbortSignal,
): Promise<CannotRunError> {
  // The path's own mistake first; else a server that publishes its metadata names its real token endpoint.
  const discovered = async () =>
    discoverTokenEndpoint(target.tokenUrl, {
      connection: target.connection,
      timeoutMs: target.timeoutMs,
      signal,
    });
  const found = tokenUrlHint(target.tokenUrl) ?? (await discovered());
  // Never advise sending the secret over plain http where the user named https.
  const downgrade = found !== undefined && isDowngrade(target.tokenUrl, found);
  const hint = found === target.tokenUrl || downgrade ? undefined : found;
  return new CannotRunError(
    `${redactor.redact(displayUrl(target.tokenUrl))} is not a token endpoint: it answered ${excerpt(answer, redactor)}` +
      (hint === undefined ? "" : `; did you mean --token-url ${redactor.untrusted(hint)}?`),
  );
}

/**
 * The preflight every command runs before judging: one token request with the given settings (and, when its
 * credentials are refused, one with the other client authentication), then one events request. What stands in the
 * way (unreachable, not a token endpoint, credentials refused) is a CannotRunError with one sentence to say.
 */
export async function diagnoseTarget(
  target: Target,
  credential: PreflightCredential,
  redactor: Redactor,
  signal: AbortSignal,
  options: PreflightOptions,
): Promise<TargetReady> {
  const ready = await diagnoseToken(target, credential, redactor, signal, options);
  await reachEvents(target, signal);
  return ready;
}

/** The token half of the preflight alone, for a command that needs a token and no events API (`token`). */
export async function diagnoseToken(
  target: Target,
  credential: PreflightCredential,
  redactor: Redactor,
  signal: AbortSignal,
  options: PreflightOptions,
): Promise<TargetReady> {
  const configured = target.clientAuth;
  const first = await attemptToken(target, credential, configured, signal);
  if (first.kind === "unreachable") throw unreachable("token endpoint", target.tokenUrl, target, first);
  const client = inertText(credential.clientId);
  if (first.kind === "too-large") {
    throw new CannotRunError(
      `the token endpoint ${displayUrl(target.tokenUrl)} answered client ${client} with a body too large for a token (${first.reason})`,
    );
  }
  if (isRedirect(first.status)) {
    if (!options.requireToken) return { clientAuth: configured };
    throw new CannotRunError(
      `the token endpoint ${displayUrl(target.tokenUrl)} answered client ${client} ${describeRedirect(first.status, first.location, target.tokenUrl)}`,
    );
  }
  const kind = answerKind(first);
  if (kind.kind === "token") return { clientAuth: configured, token: kind.token };
  if (kind.kind === "bad-lifetime") {
    if (!options.requireToken) return { clientAuth: configured };
    throw badLifetime(target, client, kind.body, redactor);
  }
  if (kind.kind === "not-token-endpoint") throw await notTokenEndpoint(target, first, redactor, signal);
  if (kind.kind === "refused") {
    const other = OTHER[configured];
    const second = await attemptToken(target, credential, other, signal);
    const secondKind = second.kind === "answer" ? answerKind(second) : undefined;
    if (secondKind?.kind === "token") {
      // A method the user named is binding: the checks judge it as given, a run that needs a token cannot start.
      if (target.clientAuthGiven === true) {
        if (!options.requireToken) return { clientAuth: configured, worksWith: other };
        throw new CannotRunError(
          `${refusedButWorks(credential.clientId, configured, other)}: ${bindingAdvice(other)}`,
        );
      }
      return { clientAuth: other, refusedClientAuth: configured, token: secondKind.token };
    }
    if (secondKind?.kind === "bad-lifetime") {
      if (!options.requireToken)
        return target.clientAuthGiven === true
          ? { clientAuth: configured, worksWith: other }
          : { clientAuth: other, refusedClientAuth: configured };
      throw badLifetime(target, client, secondKind.body, redactor);
    }
    if (second.kind === "answer" && secondKind?.kind !== "refused") {
      // Past client authentication, the server objected to something else: that answer is the one to act on.
      throw new CannotRunError(
        `client ${client} was refused with --client-auth ${configured} (${statusAndCode(first, redactor)}), but with --client-auth ${other} ` +
          `the token endpoint answered ${excerpt(second, redactor)}, which is not a refusal of the credentials: ` +
          `the client may authenticate with ${other} (--client-auth ${other}); that answer says what else the server objects to`,
      );
    }
    if (second.kind !== "answer") {
      throw new CannotRunError(
        `the credentials for client ${client} were refused with --client-auth ${configured} (${statusAndCode(first, redactor)}), and the request with --client-auth ${other} got no answer (${second.reason})`,
      );
    }
    throw new CannotRunError(
      `the credentials for client ${client} were refused (${first.status} with --client-auth ${configured}, ${second.status} with ${other}): ` +
        "check the client id and secret, or whether the secret was rotated",
    );
  }
  // An audience or resource the server does not know stops every check alike: said once, here, not by each check.
  const refused = await refusedTarget(target, credential, configured, first, redactor, signal);
  if (refused !== undefined) throw refused;
  if (!options.requireToken) return { clientAuth: configured };
  throw new CannotRunError(
    first.status === 200
      ? `the token endpoint's response for client ${client} has no usable access_token/expires_in`
      : `the token endpoint answered ${excerpt(first, redactor)} for client ${client}: no token to run with`,
  );
}

/** One events request without credentials: whatever it answers, the API is there; no answer stops the run. */
async function reachEvents(target: Target, signal: AbortSignal): Promise<void> {
  const url = eventsUrl(target);
  const deadline = requestDeadline(target.timeoutMs, signal);
  try {
    const response = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: "{}",
      signal: deadline.signal,
      dispatcher: await undiciDispatcher(target.connection),
    });
    await response.body.dump();
  } catch (error) {
    const cut = deadline.cutShort();
    throw unreachable("events endpoint", url, target, {
      reason: cut?.message ?? unreachableReason(error),
      connectFailed: cut === undefined && isConnectFailure(error),
    });
  } finally {
    deadline.dispose();
  }
}

function refusedButWorks(clientId: string, refused: ClientAuth, works: ClientAuth): string {
  return `the credentials for client ${inertText(clientId)} were refused with --client-auth ${refused} but work with --client-auth ${works}`;
}

function bindingAdvice(works: ClientAuth): string {
  return `a given --client-auth is never switched; give --client-auth ${works}, or leave it out to let the harness choose`;
}

/**
 * The one line said when the other client authentication works: the run goes on with it when the method was
 * defaulted, and judges the given one (binding) otherwise.
 */
export function switchedNote(clientId: string, ready: TargetReady): string | undefined {
  if (ready.worksWith !== undefined) {
    return `${refusedButWorks(clientId, ready.clientAuth, ready.worksWith)}: judging with ${ready.clientAuth}, as given (${bindingAdvice(ready.worksWith)})`;
  }
  if (ready.refusedClientAuth === undefined) return undefined;
  return `${refusedButWorks(clientId, ready.refusedClientAuth, ready.clientAuth)}: going on with ${ready.clientAuth}`;
}
