import { CannotRunError, UsageError } from "../../core/index.ts";
import { defineCommand } from "../command.ts";
import { ExitCode, exitCodeOf } from "../exit-codes.ts";
import { displayUrl } from "../load/display-url.ts";
import { pick, targetOptions } from "../options/target-options.ts";

const NAME = "token";
/** RFC 6750 §2.1's b64token: what a Bearer token is made of, and all `token` ever prints alone on a line. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/**
 * The base URL `token` names when it needs none: the base URL is only the default audience, and this command sends
 * no event. A reserved name (RFC 6761), never contacted.
 */
const UNUSED_BASE_URL = "https://base-url.invalid";

export const tokenCommand = defineCommand({
  name: NAME,
  summary:
    "Print one fresh access token of the configured target on stdout (for scripts and rotation checks)",
  usage: "token [target options]",
  description: [
    "Takes one token with the target's client credentials and prints it, alone, on stdout; everything else goes",
    "to stderr, so EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token …) works. This is the one place the harness",
    "prints a token on purpose: only on stdout, only when asked, never in a report. A target is required (the",
    "embedded sandbox would stop with the command, and its token with it): start `event-harness sandbox` and",
    "point the target options at it. --base-url may be left out when --audience is given (a URI, or none to send",
    "no audience): the base URL is only the default audience here.",
    "Exit codes: 0 token printed, 2 usage or configuration error, 3 no token (endpoint unreachable, not a token",
    "endpoint, credentials refused with both client authentications: said in one sentence, as every run's preflight;",
    "or a token not made of RFC 6750 b64token characters, which is never printed).",
  ].join("\n"),
  options: { ...targetOptions },
  examples: [
    "EVENT_API_CLIENT_SECRET=… event-harness token --auth-url http://127.0.0.1:8080/auth --base-url http://127.0.0.1:8080/api --client-id demo-client",
    "EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token) event-harness verify-rotation …   (target in EVENT_API_* variables)",
  ],
  async run({ options, io }) {
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
  },
});
