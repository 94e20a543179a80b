import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { ResponseTooLargeError, RotationUnconfirmedError, UsageError } from "../../core/index.ts";
import type { Connection, LocationHeader } from "../../transport/connection/index.ts";
import type { Redactor } from "../../transport/index.ts";
import type { CommandIo } from "../command.ts";
import { connectionFailureReason, viaProxy } from "../connection-failure.ts";
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
import type { RotationAnswer } from "./rotation-answer.ts";

/** How much of a server's error description a message quotes. */
const QUOTE_CHARS = 200;

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

/**
 * A secret file made safely: a temporary file is created (exclusive, mode 0600) before anything is rotated, so an
 * unwritable path fails first; the secret then replaces the target by rename, which never follows a symlink there.
 */
class SecretFile {
  private constructor(
    readonly target: string,
    readonly temporary: string,
    private readonly handle: FileHandle,
  ) {}

  static async prepare(file: string): Promise<SecretFile> {
    const target = path.resolve(file);
    const existing = await stat(target).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new UsageError("invalid-value", `--secret-file ${file} is a directory`, "sandbox-rotate");
    }
    const temporary = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`,
    );
    try {
      return new SecretFile(target, temporary, await open(temporary, "wx", 0o600));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      throw new UsageError(
        "invalid-value",
        `--secret-file ${file}: cannot create a file in ${displayPath(path.dirname(target))} (${code})`,
        "sandbox-rotate",
      );
    }
  }

  /** Writes the secret (no trailing newline, so `$(cat FILE)` and file readers agree) and moves it into place. */
  async commit(secret: string): Promise<void> {
    try {
      await this.handle.writeFile(secret, "utf8");
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    await rename(this.temporary, this.target);
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.temporary, { force: true });
  }
}

function unixTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}

function quoteForShell(value: string): string {
  return /^[\w./:-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The files one rotation writes, all prepared before anything is sent so an unwritable path fails first. */
interface PreparedFiles {
  readonly secret?: SecretFile;
  readonly kept?: { readonly oldSecret: SecretFile; readonly oldToken: SecretFile };
  discard(): Promise<void>;
}

async function prepareFiles(secretFile: string | undefined, keepOld: boolean): Promise<PreparedFiles> {
  const prepared: SecretFile[] = [];
  const discard = async () => {
    for (const file of prepared) await file.discard();
  };
  if (secretFile === undefined) return { discard };
  try {
    const names = keepOld
      ? [secretFile, `${secretFile}.old-secret`, `${secretFile}.old-token`]
      : [secretFile];
    for (const name of names) prepared.push(await SecretFile.prepare(name));
  } catch (error) {
    await discard();
    throw error;
  }
  const [secret, oldSecret, oldToken] = prepared;
  return {
    ...(secret === undefined ? {} : { secret }),
    ...(oldSecret === undefined || oldToken === undefined ? {} : { kept: { oldSecret, oldToken } }),
    discard,
  };
}

/**
 * The command that verifies this rotation, runnable as printed: secrets are read from files or the environment,
 * never written into it, and an expectation is stated only when the command has what it takes to check it.
 */
function verifyLines(rotation: {
  base: string;
  clientId: string;
  insecure: boolean;
  newSecretFile: string | undefined;
  kept: { oldSecretFile: string; oldTokenFile: string } | undefined;
  expectOld: "refused" | "accepted";
  expectOldTokens: "valid" | "revoked";
}): string[] {
  // The sandbox serves the API next to the auth server: …/auth and …/api.
  if (!rotation.base.endsWith("/auth")) {
    return ["Verify with event-harness verify-rotation, giving --base-url the sandbox's API base URL."];
  }
  const target = [
    "--auth-url",
    rotation.base,
    "--base-url",
    `${rotation.base.slice(0, -"/auth".length)}/api`,
    "--client-id",
    rotation.clientId,
    ...(rotation.insecure ? ["--insecure"] : []),
  ];
  const command = (env: string, args: readonly string[]) =>
    `Verify with: ${env}event-harness verify-rotation ${[...args, ...target].map(quoteForShell).join(" ")}`;
  // Next time, a token taken before the rotation lets verify-rotation check earlier tokens as well.
  const takeTokenFirst = `  (to check earlier tokens too, take one before rotating, with the current secret in ${CURRENT_SECRET_ENV}: EVENT_API_OLD_ACCESS_TOKEN=$(event-harness token ${target.map(quoteForShell).join(" ")}))`;
  if (rotation.newSecretFile === undefined) {
    return [
      command("", ["--expect-old", rotation.expectOld]),
      `  (with the new secret in ${CURRENT_SECRET_ENV} and the old one in EVENT_API_OLD_CLIENT_SECRET; earlier tokens are not checked: --secret-file keeps a token from before the rotation)`,
      takeTokenFirst,
    ];
  }
  const newSecret = `${CURRENT_SECRET_ENV}="$(cat ${quoteForShell(displayPath(rotation.newSecretFile))})" `;
  if (rotation.kept === undefined) {
    return [
      command(newSecret, []),
      `  (the old secret and earlier tokens are not checked: with the current secret in ${CURRENT_SECRET_ENV}, sandbox-rotate keeps them for verification)`,
      takeTokenFirst,
    ];
  }
  return [
    command(newSecret, [
      "--old-secret-file",
      displayPath(rotation.kept.oldSecretFile),
      "--old-token-file",
      displayPath(rotation.kept.oldTokenFile),
      "--expect-old",
      rotation.expectOld,
      "--expect-old-tokens",
      rotation.expectOldTokens,
    ]),
  ];
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

/** The JSON object a body holds, else undefined. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A string field of a server's answer, quoted inert and redacted (it may echo what it was sent), else "". */
function quoted(value: unknown, redactor: Redactor, prefix: string): string {
  if (typeof value !== "string" || value === "") return "";
  const { text, cut } = redactor.untrustedPrefix(value, QUOTE_CHARS);
  return `${prefix}${text}${cut ? "…" : ""}`;
}

/**
 * Sends the rotation request and checks the answer before anything is written or printed from it; a refusal the
 * user can fix is a UsageError. Every word of the server's is quoted inert and redacted.
 */
async function callAdminEndpoint(
  endpoint: string,
  asked: { readonly adminToken: string; readonly clientId: string; readonly base: string },
  rotation: { overlapSeconds: number; revokeTokens: boolean },
  reach: { timeoutMs: number; connection: Connection },
  redactor: Redactor,
  signal: AbortSignal,
): Promise<RotationAnswer> {
  const { adminToken } = asked;
  const { request } = await import("undici");
  const { requestDeadline } = await import("../../transport/deadline/index.ts");
  const { describeRedirect, isRedirect, readCappedText, undiciDispatcher } = await import(
    "../../transport/connection/index.ts"
  );
  let status: number;
  let text: string;
  let location: LocationHeader;
  // One deadline for connect, headers and body: undici's own timeouts are idle timers a trickle outlives.
  const deadline = requestDeadline(reach.timeoutMs, signal);
  try {
    // undici's request() follows no redirect (that needs its redirect interceptor): the admin token stays here.
    const response = await request(endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${adminToken}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({
        overlap_seconds: rotation.overlapSeconds,
        revoke_tokens: rotation.revokeTokens,
      }),
      signal: deadline.signal,
      dispatcher: await undiciDispatcher(reach.connection),
    });
    status = response.statusCode;
    location = response.headers.location;
    text = await readCappedText(response.body);
  } catch (error) {
    // The endpoint answered, so the secret may have changed although the answer could not be read.
    if (error instanceof ResponseTooLargeError) {
      throw new RotationUnconfirmedError(
        `the admin endpoint ${endpoint} answered, but its ${error.message}; the secret may have changed: rotate again to get a usable one`,
      );
    }
    const reason = deadline.cutShort()?.message ?? connectionFailureReason(error) ?? errorReason(error);
    throw new RotationUnconfirmedError(
      `cannot reach the admin endpoint ${endpoint}${viaProxy(endpoint, reach.connection)} (${reason}); nothing was rotated`,
    );
  } finally {
    deadline.dispose();
  }
  const body = jsonObject(text);
  const description = quoted(body?.error_description, redactor, ": ");
  if (status === 401) {
    throw new UsageError(
      "invalid-config",
      `the sandbox refused the admin token (401${description}); check ${ADMIN_TOKEN_ENV}`,
    );
  }
  if (status === 404) {
    throw new UsageError(
      "invalid-config",
      `${endpoint} answered 404${description} (is --client-id registered, and --auth-url the sandbox's auth URL?)`,
    );
  }
  if (isRedirect(status)) {
    throw new RotationUnconfirmedError(
      `the admin endpoint ${endpoint} answered ${describeRedirect(status, location, endpoint)}; nothing was rotated there`,
    );
  }
  if (status !== 200) {
    throw new RotationUnconfirmedError(`the admin endpoint answered ${status}${description}`);
  }
  const { readRotationAnswer } = await import("./rotation-answer.ts");
  const read = readRotationAnswer(body ?? text, asked.clientId);
  if (!read.ok) {
    const { inertText } = await import("../../transport/index.ts");
    throw new RotationUnconfirmedError(
      `the admin endpoint answered 200 with no usable rotation (${read.problems}); the secret of client ` +
        `${inertText(asked.clientId)} at ${asked.base} may have changed: rotate again to get a usable one`,
    );
  }
  return read.answer;
}

/**
 * Takes a token with the client's current secret, as the token endpoint's form request (Endpoints §1); a refusal
 * means the secret is not the current one, a usage error with nothing rotated.
 */
async function takeToken(
  tokenUrl: string,
  clientId: string,
  secret: string,
  reach: { timeoutMs: number; connection: Connection },
  redactor: Redactor,
  signal: AbortSignal,
): Promise<string> {
  const { request } = await import("undici");
  const { requestDeadline } = await import("../../transport/deadline/index.ts");
  const { readCappedText, undiciDispatcher } = await import("../../transport/connection/index.ts");
  const { tokenRequestParts } = await import("../../transport/index.ts");
  const { headers, body } = tokenRequestParts("post", {
    client_id: clientId,
    client_secret: secret,
    grant_type: "client_credentials",
  });
  let status: number;
  let text: string;
  const deadline = requestDeadline(reach.timeoutMs, signal);
  try {
    const response = await request(tokenUrl, {
      method: "POST",
      headers: { ...headers, accept: "application/json" },
      body,
      signal: deadline.signal,
      dispatcher: await undiciDispatcher(reach.connection),
    });
    status = response.statusCode;
    text = await readCappedText(response.body);
  } catch (error) {
    const reason = deadline.cutShort()?.message ?? connectionFailureReason(error) ?? errorReason(error);
    throw new RotationUnconfirmedError(
      `cannot take a token with the current secret from ${tokenUrl}${viaProxy(tokenUrl, reach.connection)} (${reason}); nothing was rotated`,
    );
  } finally {
    deadline.dispose();
  }
  const answer = jsonObject(text);
  const token = answer?.access_token;
  if (status === 200 && typeof token === "string" && token !== "") return token;
  const code = quoted(answer?.error, redactor, " ");
  if (status === 400 || status === 401) {
    throw new UsageError(
      "invalid-config",
      `${CURRENT_SECRET_ENV} is not the current secret of client ${clientId} (${status}${code} from ${tokenUrl}); ` +
        `nothing was rotated (unset it to rotate without keeping the old secret and a token for verification)`,
      "sandbox-rotate",
    );
  }
  if (status === 404) {
    throw new UsageError(
      "invalid-config",
      `${tokenUrl} answered 404 (is --auth-url the sandbox's auth URL?); nothing was rotated`,
      "sandbox-rotate",
    );
  }
  throw new RotationUnconfirmedError(
    `${tokenUrl} gave no token for the current secret (${status}${code}); nothing was rotated`,
  );
}
