import type { ServerResponse } from "node:http";
import type { FaultName } from "./faults.ts";
import { messageBody, replyJson } from "./http-reply.ts";
import { REALM } from "./oauth-error.ts";

/** Production's 401 body. */
export const FORBIDDEN_MESSAGE = "Access to this resource is forbidden";
const FORBIDDEN_BODY = messageBody(FORBIDDEN_MESSAGE);
const INTERNAL_BODY = messageBody("Internal server error");
const MISSING_CHALLENGE = `Bearer realm="${REALM}"`;

/** How the API refuses a request without a usable token (RFC 6750 §3), faults included. */
export class BearerChallenger {
  readonly #withChallenge: boolean;
  readonly #serverError: boolean;

  constructor(faults: ReadonlySet<FaultName>) {
    this.#withChallenge = !faults.has("bearer-no-www-authenticate");
    this.#serverError = faults.has("bearer-5xx");
  }

  /**
   * `description` is undefined when the request carried no credentials: RFC 6750 §3.1 then wants no error code.
   * `extra` adds members to the JSON body (the `bearer-rejected-stored` fault's EventRef).
   */
  reply(res: ServerResponse, description: string | undefined, extra?: Record<string, string>): void {
    if (description !== undefined && this.#serverError) {
      replyJson(res, 500, INTERNAL_BODY);
      return;
    }
    const headers: Record<string, string> = {};
    if (this.#withChallenge) {
      headers["www-authenticate"] =
        description === undefined
          ? MISSING_CHALLENGE
          : `${MISSING_CHALLENGE}, error="invalid_token", error_description="${description}"`;
    }
    const body =
      extra === undefined ? FORBIDDEN_BODY : JSON.stringify({ Message: FORBIDDEN_MESSAGE, ...extra });
    replyJson(res, 401, body, headers);
  }
}
