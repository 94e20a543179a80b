import { RotationUnconfirmedError, UsageError } from "../../core/index.ts";
import type { CommandIo } from "../command.ts";
import { displayPath } from "../display-path.ts";
import { errorReason } from "../error-reason.ts";
import { ExitCode, exitCodeOf } from "../exit-codes.ts";
import { parseInteger } from "../options/parse-option-value.ts";
import type { SandboxRotateOptionValues } from "../options/sandbox-rotate-options.ts";
import {
  ADMIN_TOKEN_ENV,
  CURRENT_SECRET_ENV,
  sandboxRotateOptions,
} from "../options/sandbox-rotate-options.ts";
import { resolveConnection, resolveTimeoutMs } from "../options/target-options.ts";
import { callAdminEndpoint, takeToken } from "./admin-requests.ts";
import type { RotationAnswer } from "./rotation-answer.ts";
import { prepareFiles } from "./secret-files.ts";
import { verifyLines } from "./verify-lines.ts";

function authUrlOption(raw: string | undefined): URL {
  if (raw === undefined || raw.trim() === "") {
    throw new UsageError(
      "missing-argument",
      "--auth-url (or EVENT_API_AUTH_URL) is required",
      "sandbox-rotate",
    );
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError("invalid-value", `--auth-url must be an absolute http(s) URL, got '${raw}'`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username) {
    throw new UsageError(
      "invalid-value",
      "--auth-url must be an http(s) URL without query, fragment or user info",
      "sandbox-rotate",
    );
  }
  return url;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function unixTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}

/**
 * `event-harness sandbox-rotate`: reads and checks the options, prepares the files the new secret (and what verifies
 * the rotation) goes to, rotates through the sandbox's admin endpoint and says what it did and how to verify it.
 */
export async function rotateSandboxSecret(
  options: SandboxRotateOptionValues,
  io: CommandIo,
): Promise<number> {
  const authUrl = authUrlOption(options["auth-url"] ?? io.env.EVENT_API_AUTH_URL);
  const clientId = (options["client-id"] ?? io.env.EVENT_API_CLIENT_ID ?? "").trim();
  if (clientId === "") {
    throw new UsageError(
      "missing-argument",
      "--client-id (or EVENT_API_CLIENT_ID) is required",
      "sandbox-rotate",
    );
  }
  const overlapSeconds = parseInteger("overlap", options.overlap, {
    ...sandboxRotateOptions.overlap.range,
    fallback: 0,
  });
  const revokeTokens = options.revoke === true;
  const timeoutMs = resolveTimeoutMs(options, io.env);
  const showSecret = options["show-secret"] === true;
  const secretFile = options["secret-file"];
  if (showSecret === (secretFile !== undefined)) {
    throw new UsageError(
      "invalid-config",
      "give exactly one of --secret-file FILE and --show-secret: the new secret must be kept somewhere",
      "sandbox-rotate",
    );
  }
  const connection = resolveConnection(options, io.env);
  const adminToken = io.env[ADMIN_TOKEN_ENV]?.trim() ?? "";
  if (adminToken === "") {
    throw new UsageError(
      "invalid-config",
      `${ADMIN_TOKEN_ENV} must hold the sandbox's admin token (\`event-harness sandbox\` prints it)`,
      "sandbox-rotate",
    );
  }

  const { Redactor, inertText } = await import("../../transport/index.ts");
  // A server may echo a credential in any encoding, base64 included; the client id is the user's, shown inert.
  const redactor = new Redactor().addWithBase64(adminToken, "<ADMIN_TOKEN>");
  const client = inertText(clientId);
  const say = (text: string) => io.stderr.write(redactor.redact(text));
  if (authUrl.protocol === "http:" && !isLoopback(authUrl.hostname)) {
    say(`event-harness: note: sending the admin token over plain http to ${authUrl.host}.\n`);
  }
  if (connection.insecure && authUrl.protocol === "https:") {
    say(
      "event-harness: WARNING: TLS certificates were not verified (--insecure): a man in the middle could have read the admin token and the new secret.\n",
    );
  }
  const base = authUrl.toString().replace(/\/+$/, "");
  const endpoint = `${base}/admin/clients/${encodeURIComponent(clientId)}/rotate`;

  const currentSecret = io.env[CURRENT_SECRET_ENV]?.trim() || undefined;
  if (currentSecret !== undefined) {
    redactor.addWithBase64(currentSecret, "<CLIENT_SECRET>").addBasic(clientId, currentSecret);
  }
  const files = await prepareFiles(secretFile, currentSecret !== undefined);
  let answer: RotationAnswer;
  /** Where the new secret is, once the rotation is made: said by any error that follows it. */
  let kept = "";
  try {
    const reach = { timeoutMs, connection };
    // A token taken before the rotation is what shows later whether earlier tokens survived it.
    const oldToken =
      files.kept === undefined || currentSecret === undefined
        ? undefined
        : await takeToken(`${base}/oauth/token`, clientId, currentSecret, reach, redactor, io.signal);
    if (oldToken !== undefined) redactor.addToken(oldToken, "<OLD_ACCESS_TOKEN>");
    answer = await callAdminEndpoint(
      endpoint,
      { adminToken, clientId, base },
      { overlapSeconds, revokeTokens },
      reach,
      redactor,
      io.signal,
    );
    redactor.addWithBase64(answer.client_secret, "<CLIENT_SECRET>");
    const rotated = `rotated the secret of client ${client} at ${base}`;
    kept = files.secret
      ? `the new secret could not be written to ${displayPath(files.secret.target)}, so it was kept nowhere: rotate again to get a usable one`
      : "the new secret was not printed: rotate again to get a usable one";
    try {
      await files.secret?.commit(answer.client_secret);
      if (files.secret) kept = `the new secret is in ${displayPath(files.secret.target)} (mode 0600)`;
      if (files.kept !== undefined && currentSecret !== undefined && oldToken !== undefined) {
        await files.kept.oldSecret.commit(currentSecret);
        await files.kept.oldToken.commit(oldToken);
      }
    } catch (error) {
      throw new RotationUnconfirmedError(
        `${rotated}, but a file could not be written (${errorReason(error)}): ${kept}${files.kept ? "; the old secret and a token for verification were not all kept" : ""}`,
      );
    }
  } catch (error) {
    await files.discard();
    if (error instanceof RotationUnconfirmedError) {
      say(`event-harness: ${error.message}\n`);
      return exitCodeOf(error);
    }
    throw error;
  }

  const file = files.secret;
  const lines = [
    `Rotated the secret of client ${client} at ${base}.`,
    `  New secret       ${file ? `written to ${displayPath(file.target)} (mode 0600)` : "on stdout"}`,
    `  Old secret       ${
      answer.old_secret_valid_until === null
        ? "refused from now on"
        : `accepted until ${unixTime(answer.old_secret_valid_until)} (${overlapSeconds} s overlap)`
    }`,
    `  Earlier tokens   ${
      revokeTokens
        ? `revoked (not-before-policy ${answer["not-before-policy"]}, ${unixTime(answer["not-before-policy"])})`
        : "valid until they expire"
    }`,
    ...(files.kept
      ? [
          `  Kept to verify   the old secret in ${displayPath(files.kept.oldSecret.target)}, a token taken with it before the rotation in ${displayPath(files.kept.oldToken.target)} (mode 0600)`,
        ]
      : []),
    ...verifyLines({
      base,
      clientId,
      insecure: connection.insecure,
      newSecretFile: file?.target,
      kept: files.kept && {
        oldSecretFile: files.kept.oldSecret.target,
        oldTokenFile: files.kept.oldToken.target,
      },
      expectOld: answer.old_secret_valid_until === null ? "refused" : "accepted",
      expectOldTokens: revokeTokens ? "revoked" : "valid",
    }),
    "",
  ].join("\n");
  if (showSecret) {
    // The secret alone on stdout, so `$(…)` or a pipe gets exactly it; everything else goes to stderr.
    io.stdout.write(`${answer.client_secret}\n`);
    say(lines);
  } else {
    io.stdout.write(redactor.redact(lines));
  }
  return ExitCode.ok;
}
