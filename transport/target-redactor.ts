import { Redactor } from "./redactor.ts";
import type { Target } from "./target.ts";

/**
 * A redactor that knows every secret-like value of a target's settings: the client secret (as a form field and as
 * HTTP Basic credentials) and each token parameter's value. Every redactor of a run starts from this one.
 */
export function targetRedactor(target: Pick<Target, "clientId" | "clientSecret" | "tokenParams">): Redactor {
  const secret = target.clientSecret.reveal();
  return new Redactor()
    .add(secret, "<CLIENT_SECRET>")
    .addBasic(target.clientId, secret)
    .addTokenParams(target.tokenParams);
}
