import { CannotRunError, UsageError } from "../../core/index.ts";
import type { CommandIo } from "../command.ts";
import { ExitCode, exitCodeOf } from "../exit-codes.ts";
import { displayUrl } from "../load/display-url.ts";
import type { TargetOptionValues } from "../options/target-options.ts";
import { pick } from "../options/target-options.ts";

const NAME = "token";
/** RFC 6750 §2.1's b64token: what a Bearer token is made of, and all `token` ever prints alone on a line. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/**
 * The base URL `token` names when it needs none: the base URL is only the default audience, and this command sends
 * no event. A reserved name (RFC 6761), never contacted.
 */
const UNUSED_BASE_URL = "https://base-url.invalid";

/**
 * `event-harness token`: takes one token with the target's client credentials, as every run's preflight does, and
 * prints it alone on stdout; everything else goes to stderr.
 */
export async function printToken(options: TargetOptionValues, io: CommandIo): Promise<number> {
  const { resolveTargetWithIssuer } = await import("../issuer-target.ts");
  const baseUrlUnneeded =
    pick(options, io.env, "base-url") === undefined && pick(options, io.env, "audience") !== undefined;
  const target = await resolveTargetWithIssuer(
    baseUrlUnneeded ? { ...options, "base-url": UNUSED_BASE_URL } : options,
    io.env,
    io,
  );
  if (target === undefined) {
    throw new UsageError(
      "invalid-config",
      "token needs a target: --auth-url (or --token-url or --issuer), --base-url, --client-id and EVENT_API_CLIENT_SECRET " +
        "(the embedded sandbox would stop with this command; start `event-harness sandbox` and name it)",
      NAME,
    );
  }
  // The preflight's token half: the same request (resource, token parameters) and the same diagnoses as every run.
  const { diagnoseToken, switchedNote } = await import("../preflight/index.ts");
  const { inertText, targetRedactor } = await import("../../transport/index.ts");
  const secret = target.clientSecret.reveal();
  const redactor = targetRedactor(target);
  const say = (line: string) => io.stderr.write(`event-harness ${NAME}: ${line}\n`);
  try {
    const credential = { clientId: target.clientId, clientSecret: secret };
    const ready = await diagnoseToken(target, credential, redactor, io.signal, { requireToken: true });
    const note = switchedNote(target.clientId, ready);
    if (note !== undefined) say(note);
    if (ready.token === undefined)
      throw new Error("the preflight returned no token although it was required");
    // A terminal or a CI log would obey what else a target put there; a credential is never quoted to say so.
    if (!B64TOKEN.test(ready.token.accessToken)) {
      throw new CannotRunError(
        `the token endpoint ${displayUrl(target.tokenUrl)} issued client ${inertText(target.clientId)} an access_token ` +
          `of ${ready.token.accessToken.length} characters that are not all RFC 6750 b64token characters ` +
          "(letters, digits, - . _ ~ + /, then = padding): not printed, and no Bearer header could carry it",
      );
    }
    say(
      `token for client ${inertText(target.clientId)} from ${displayUrl(target.tokenUrl)}, expires_in ${ready.token.expiresInSeconds}s`,
    );
    io.stdout.write(`${ready.token.accessToken}\n`);
    return ExitCode.ok;
  } catch (error) {
    if (!(error instanceof CannotRunError)) throw error;
    say(`no token: ${error.message}`);
    return exitCodeOf(error);
  }
}
