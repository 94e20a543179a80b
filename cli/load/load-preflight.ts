import { CannotRunError } from "../../core/index.ts";
import type { ClientCredential } from "../../load/index.ts";
import type { ClientAuth, Redactor, Target } from "../../transport/index.ts";
import { inertText } from "../../transport/index.ts";
import { diagnoseTarget } from "../preflight/index.ts";
import { displayUrl } from "./display-url.ts";

export interface PreflightResult {
  /** The one expires_in every client's token came with; idle-gap plans its gaps from it. */
  readonly expiresInSeconds: number;
  /** The client authentication that got the tokens: the configured one, or the other when that one was refused. */
  readonly clientAuth: ClientAuth;
  /** The configured client authentication, when it was refused and `clientAuth` worked. */
  readonly refusedClientAuth?: ClientAuth;
}

/**
 * The pre-run token check: the shared preflight for the first credential (which may switch the client
 * authentication), then one token per other credential with the method that worked, so a wrong secret or an
 * unreachable target fails fast (CannotRunError, exit 3), and learns expires_in. Every token seen is registered with
 * the redactor.
 */
export async function preflight(
  target: Target,
  credentials: readonly ClientCredential[],
  redactor: Redactor,
  signal: AbortSignal,
): Promise<PreflightResult> {
  const seen = new Set<number>();
  let working: Target = target;
  let refusedClientAuth: ClientAuth | undefined;
  for (const [index, credential] of credentials.entries()) {
    const ready = await diagnoseTarget(working, credential, redactor, signal, { requireToken: true });
    if (index === 0 && ready.refusedClientAuth !== undefined) {
      refusedClientAuth = ready.refusedClientAuth;
      working = { ...target, clientAuth: ready.clientAuth };
    }
    const token = ready.token;
    if (token === undefined) throw new Error("the preflight returned no token although it was required");
    // A token the reports could not hide stops the run before k6 starts, said in one sentence.
    const refusal = redactor.tokenRefusal(token.accessToken);
    if (refusal !== undefined) {
      throw new CannotRunError(
        `the token endpoint ${displayUrl(working.tokenUrl)} gave client ${inertText(credential.clientId)} an access token that ${refusal}`,
      );
    }
    redactor.addToken(token.accessToken, "<ACCESS_TOKEN>");
    seen.add(token.expiresInSeconds);
  }
  if (seen.size > 1) {
    throw new CannotRunError(`the clients' tokens have different expires_in: ${[...seen].join(", ")}`);
  }
  return {
    expiresInSeconds: [...seen][0] as number,
    clientAuth: working.clientAuth,
    ...(refusedClientAuth === undefined ? {} : { refusedClientAuth }),
  };
}
