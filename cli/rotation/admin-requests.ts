import { ResponseTooLargeError, RotationUnconfirmedError, UsageError } from "../../core/index.ts";
import type { Connection, LocationHeader } from "../../transport/connection/index.ts";
import type { Redactor } from "../../transport/index.ts";
import { connectionFailureReason, viaProxy } from "../connection-failure.ts";
import { errorReason } from "../error-reason.ts";
import { ADMIN_TOKEN_ENV, CURRENT_SECRET_ENV } from "../options/sandbox-rotate-options.ts";
import type { RotationAnswer } from "./rotation-answer.ts";

/** How much of a server's error description a message quotes. */
const QUOTE_CHARS = 200;

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
export async function callAdminEndpoint(
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
export async function takeToken(
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
