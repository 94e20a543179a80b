import { request } from "undici";
import type { ClientCredential } from "../../load/index.ts";
import { parseTokenResponse } from "../../load/index.ts";
import type { LocationHeader } from "../../transport/connection/index.ts";
import {
  describeRedirect,
  isRedirect,
  ResponseTooLargeError,
  readCappedText,
  undiciDispatcher,
} from "../../transport/connection/index.ts";
import { requestDeadline } from "../../transport/deadline/index.ts";
import type { Redactor, Target } from "../../transport/index.ts";
import { targetTokenFields, tokenRequestParts } from "../../transport/index.ts";
import { connectionFailureReason, viaProxy } from "../connection-failure.ts";
import { errorReason } from "../error-reason.ts";
import { CannotRunError } from "./cannot-run-error.ts";
import { displayUrl } from "./display-url.ts";

export interface PreflightResult {
  /** The one expires_in every client's token came with; idle-gap plans its gaps from it. */
  readonly expiresInSeconds: number;
}

/**
 * The pre-run token check: gets one token per credential before k6 starts, so a wrong secret or an unreachable
 * target fails fast (CannotRunError, exit 3), and learns expires_in. Every token seen is registered with the redactor.
 */
export async function preflight(
  target: Target,
  credentials: readonly ClientCredential[],
  redactor: Redactor,
  signal: AbortSignal,
): Promise<PreflightResult> {
  const seen = new Set<number>();
  for (const credential of credentials) {
    let status: number;
    let text: string;
    let location: LocationHeader;
    const { headers, body } = tokenRequestParts(target.clientAuth, {
      ...targetTokenFields(target),
      client_id: credential.clientId,
      client_secret: credential.clientSecret,
    });
    // One deadline for connect, headers and body: undici's own timeouts are idle timers a trickle outlives.
    const deadline = requestDeadline(target.timeoutMs, signal);
    try {
      // undici's request() follows no redirect (that needs its redirect interceptor): the secret stays here.
      const response = await request(target.tokenUrl, {
        method: "POST",
        headers: { ...headers, accept: "application/json" },
        body,
        signal: deadline.signal,
        dispatcher: await undiciDispatcher(target.connection),
      });
      status = response.statusCode;
      location = response.headers.location;
      text = await readCappedText(response.body);
    } catch (error) {
      // The endpoint answered, but with more than any token response holds: not a reachability problem.
      if (error instanceof ResponseTooLargeError) {
        throw new CannotRunError(
          `the token endpoint ${displayUrl(target.tokenUrl)} answered client ${credential.clientId} with a body too large for a token (${error.message})`,
        );
      }
      const reason = deadline.cutShort()?.message ?? connectionFailureReason(error) ?? errorReason(error);
      throw new CannotRunError(
        `cannot reach the token endpoint ${displayUrl(target.tokenUrl)}${viaProxy(target.tokenUrl, target.connection)} (${reason})`,
      );
    } finally {
      deadline.dispose();
    }
    if (isRedirect(status)) {
      throw new CannotRunError(
        `the token endpoint ${displayUrl(target.tokenUrl)} answered client ${credential.clientId} ${describeRedirect(status, location, target.tokenUrl)}`,
      );
    }
    const token = parseTokenResponse(status, text);
    if (token === undefined) {
      throw new CannotRunError(
        status === 200
          ? `the token endpoint's response for client ${credential.clientId} has no usable access_token/expires_in`
          : `the token endpoint answered ${status} for client ${credential.clientId}: check the credentials`,
      );
    }
    redactor.addToken(token.accessToken, "<ACCESS_TOKEN>");
    seen.add(token.expiresInSeconds);
  }
  if (seen.size > 1) {
    throw new CannotRunError(`the clients' tokens have different expires_in: ${[...seen].join(", ")}`);
  }
  return { expiresInSeconds: [...seen][0] as number };
}
