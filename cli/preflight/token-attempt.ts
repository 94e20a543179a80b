import { request } from "undici";
import { ResponseTooLargeError } from "../../core/index.ts";
import type { LocationHeader } from "../../transport/connection/index.ts";
import { readCappedText, undiciDispatcher } from "../../transport/connection/index.ts";
import { requestDeadline } from "../../transport/deadline/index.ts";
import type { ClientAuth, Target } from "../../transport/index.ts";
import { targetTokenFields, tokenRequestParts } from "../../transport/index.ts";
import { isConnectFailure, unreachableReason } from "./unreachable-reason.ts";

/** The client a token is asked for: the target's own, or one of a credentials file's. */
export interface PreflightCredential {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** What one token request came to: an answer to read, or why there was none. */
export type TokenAttempt =
  | {
      readonly kind: "answer";
      readonly status: number;
      readonly contentType: string;
      readonly text: string;
      readonly location: LocationHeader;
    }
  | { readonly kind: "too-large"; readonly reason: string }
  | { readonly kind: "unreachable"; readonly reason: string; readonly connectFailed: boolean };

/** One token request with `clientAuth`, under one deadline; undici's request() follows no redirect, so the secret stays here. */
export async function attemptToken(
  target: Target,
  credential: PreflightCredential,
  clientAuth: ClientAuth,
  signal: AbortSignal,
): Promise<TokenAttempt> {
  const { headers, body } = tokenRequestParts(clientAuth, {
    ...targetTokenFields(target),
    client_id: credential.clientId,
    client_secret: credential.clientSecret,
  });
  // One deadline for connect, headers and body: undici's own timeouts are idle timers a trickle outlives.
  const deadline = requestDeadline(target.timeoutMs, signal);
  try {
    const response = await request(target.tokenUrl, {
      method: "POST",
      headers: { ...headers, accept: "application/json" },
      body,
      signal: deadline.signal,
      dispatcher: await undiciDispatcher(target.connection),
    });
    const contentType = response.headers["content-type"];
    return {
      kind: "answer",
      status: response.statusCode,
      contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? "",
      location: response.headers.location,
      text: await readCappedText(response.body),
    };
  } catch (error) {
    // The endpoint answered, but with more than any token response holds: not a reachability problem.
    if (error instanceof ResponseTooLargeError) return { kind: "too-large", reason: error.message };
    const cut = deadline.cutShort();
    return {
      kind: "unreachable",
      reason: cut?.message ?? unreachableReason(error),
      connectFailed: cut === undefined && isConnectFailure(error),
    };
  } finally {
    deadline.dispose();
  }
}
