import { UsageError } from "../../core/index.ts";
import { defineCommand } from "../command.ts";
import { connectionFailureReason, viaProxy } from "../connection-failure.ts";
import { errorReason } from "../error-reason.ts";
import { ExitCode } from "../exit-codes.ts";
import { displayUrl } from "../load/display-url.ts";
import { resolveTarget, targetOptions } from "../target-options.ts";

const NAME = "token";

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
    "point the target options at it.",
    "Exit codes: 0 token printed, 2 usage or configuration error (also credentials the endpoint refused),",
    "3 no token (endpoint unreachable, timeout, an answer that is not a token response).",
  ].join("\n"),
  options: { ...targetOptions },
  examples: [
    "EVENT_API_CLIENT_SECRET=… event-harness token --auth-url http://127.0.0.1:8080/auth --base-url http://127.0.0.1:8080/api --client-id demo-client",
    "EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token) event-harness verify-rotation …   (target in EVENT_API_* variables)",
  ],
  async run({ options, io }) {
    const target = resolveTarget(options, io.env);
    if (target === undefined) {
      throw new UsageError(
        "invalid-config",
        "token needs a target: --auth-url (or --token-url), --base-url, --client-id and EVENT_API_CLIENT_SECRET " +
          "(the embedded sandbox would stop with this command; start `event-harness sandbox` and name it)",
        NAME,
      );
    }
    const { request } = await import("undici");
    const { requestDeadline } = await import("../../transport/deadline/index.ts");
    const { readCappedText, undiciDispatcher } = await import("../../transport/connection/index.ts");
    const { Redactor, tokenRequestParts } = await import("../../transport/index.ts");
    const { parseTokenResponse } = await import("../../load/index.ts");
    const where = displayUrl(target.tokenUrl);
    const say = (line: string) => io.stderr.write(`event-harness ${NAME}: ${line}\n`);
    const { headers, body } = tokenRequestParts(target.clientAuth, {
      client_id: target.clientId,
      client_secret: target.clientSecret.reveal(),
      grant_type: "client_credentials",
      audience: target.audience,
      scope: target.scope,
    });
    let status: number;
    let text: string;
    const deadline = requestDeadline(target.timeoutMs, io.signal);
    try {
      // undici's request() follows no redirect: the credentials go to the token URL and nowhere else.
      const response = await request(target.tokenUrl, {
        method: "POST",
        headers: { ...headers, accept: "application/json" },
        body,
        signal: deadline.signal,
        dispatcher: await undiciDispatcher(target.connection),
      });
      status = response.statusCode;
      text = await readCappedText(response.body);
    } catch (error) {
      const reason = deadline.cutShort()?.message ?? connectionFailureReason(error) ?? errorReason(error);
      say(`no token: cannot reach ${where}${viaProxy(target.tokenUrl, target.connection)} (${reason})`);
      return ExitCode.undecided;
    } finally {
      deadline.dispose();
    }
    const token = parseTokenResponse(status, text);
    if (token !== undefined) {
      say(`token for client ${target.clientId} from ${where}, expires_in ${token.expiresInSeconds}s`);
      io.stdout.write(`${token.accessToken}\n`);
      return ExitCode.ok;
    }
    // The error code is the target's text: shown inert, and without the secret should the target echo it.
    const redactor = new Redactor()
      .add(target.clientSecret.reveal(), "<CLIENT_SECRET>")
      .addBasic(target.clientId, target.clientSecret.reveal());
    const code = oauthErrorCode(text);
    const answer = `${status}${code === undefined ? "" : ` ${redactor.untrusted(code)}`}`;
    if (status === 400 || status === 401) {
      throw new UsageError(
        "invalid-config",
        `the token endpoint ${where} refused client ${target.clientId} (${answer}): check the client id and ` +
          `secret, whether the secret was rotated, and --client-auth (${target.clientAuth} was used)`,
        NAME,
      );
    }
    say(
      status === 200
        ? `no token: ${where} answered 200 without a usable access_token and expires_in`
        : `no token: ${where} answered ${answer}`,
    );
    return ExitCode.undecided;
  },
});

/** The RFC 6749 `error` code of a JSON error answer, if there is one. */
function oauthErrorCode(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const code = (parsed as Record<string, unknown>).error;
    return typeof code === "string" ? code.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
}
