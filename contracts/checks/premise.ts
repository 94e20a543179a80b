import { PrerequisiteError } from "../../core/index.ts";
import { isSuccess } from "../probe/http-request.ts";
import type { Probe } from "../probe/probe.ts";
import { accessTokenOf, describeResponse } from "./describe.ts";

/**
 * A check that passes on a refusal first shows that the same token endpoint issues a token for the given
 * credentials: otherwise the refusal it sees may be the one that stops every request (wrong secret, wrong URL).
 */
export async function premiseToken(probe: Probe): Promise<string> {
  return (await premiseIssuedToken(probe)).accessToken;
}

/** premiseToken, with the expires_in the token came with (undefined when it is not a positive whole number). */
export async function premiseIssuedToken(
  probe: Probe,
): Promise<{ readonly accessToken: string; readonly expiresIn: number | undefined }> {
  const response = await probe.exchange(
    "premise: token request with the given credentials",
    probe.tokenRequest(),
  );
  const token = accessTokenOf(response);
  if (!isSuccess(response.status) || token === undefined) {
    const said = describeResponse(response, probe.redactor);
    throw new PrerequisiteError(
      `premise failed: the given credentials got no token (${said}), so a refusal here proves nothing (see token.issued)`,
    );
  }
  const expiresIn = (response.json as Record<string, unknown>).expires_in;
  return {
    accessToken: token,
    expiresIn:
      Number.isSafeInteger(expiresIn) && (expiresIn as number) > 0 ? (expiresIn as number) : undefined,
  };
}

/**
 * A check that passes on a rejected event first shows that the same events endpoint accepts a valid event with
 * the same token: a wrong base URL or a refused token rejects everything.
 */
export async function premiseAcceptedEvent(probe: Probe, accessToken: string): Promise<void> {
  const response = await probe.postEvent("premise: create a valid event", accessToken);
  if (!isSuccess(response.status)) {
    const said = describeResponse(response, probe.redactor);
    throw new PrerequisiteError(
      `premise failed: a valid event with a valid token was not accepted (${said}), so a rejection here proves nothing (see events.accepted)`,
    );
  }
}
