import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdminTokenGuard } from "./admin-token.ts";
import type { ClientRegistry } from "./client-registry.ts";
import { isJsonContentType, readBody } from "./http-body.ts";
import { replyJson } from "./http-reply.ts";
import { NO_STORE_HEADERS } from "./oauth-error.ts";
import type { Handler } from "./router.ts";
import type { RotationOutcome, RotationRequest } from "./secret-rotation.ts";

/** The realm of the admin credential, apart from the API's so a client never mistakes one for the other. */
export const ADMIN_REALM = "event-api-sandbox-admin";
/** Longest overlap the admin endpoint grants: a day covers any deployment roll-out. */
export const MAX_OVERLAP_SECONDS = 86_400;
/** The body is two small fields; anything larger is not a rotation request. */
const MAX_ADMIN_BODY_BYTES = 4096;
const FIELDS = new Set(["overlap_seconds", "revoke_tokens"]);

export interface AdminEndpointDeps {
  readonly guard: AdminTokenGuard;
  readonly clients: ClientRegistry;
  readonly rotate: (clientId: string, request: RotationRequest) => RotationOutcome;
}

function replyError(
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  replyJson(res, status, JSON.stringify({ error, error_description: description }), {
    ...NO_STORE_HEADERS,
    ...headers,
  });
}

/** The bearer credential of an Authorization header; undefined when there is none (RFC 6750 §2.1). */
function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? "";
}

type Parsed =
  | { readonly ok: true; readonly request: RotationRequest }
  | { readonly ok: false; readonly reason: string };

/** Reads `{"overlap_seconds": n, "revoke_tokens": bool}`; both optional, unknown fields refused (a typo must not mean 0). */
export function parseRotationBody(text: string): Parsed {
  if (text.trim() === "") return { ok: true, request: { overlapSeconds: 0, revokeTokens: false } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "the body is not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, reason: "the body must be a JSON object" };
  }
  const body = value as Record<string, unknown>;
  const unknown = Object.keys(body).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) {
    return {
      ok: false,
      reason: `unknown field(s) ${unknown.map((key) => JSON.stringify(key)).join(", ")}; expected overlap_seconds, revoke_tokens`,
    };
  }
  const overlap = body.overlap_seconds ?? 0;
  if (
    typeof overlap !== "number" ||
    !Number.isSafeInteger(overlap) ||
    overlap < 0 ||
    overlap > MAX_OVERLAP_SECONDS
  ) {
    return { ok: false, reason: `overlap_seconds must be a whole number from 0 to ${MAX_OVERLAP_SECONDS}` };
  }
  const revoke = body.revoke_tokens ?? false;
  if (typeof revoke !== "boolean") return { ok: false, reason: "revoke_tokens must be true or false" };
  return { ok: true, request: { overlapSeconds: overlap, revokeTokens: revoke } };
}

/** `POST {authUrl}/admin/clients/{clientId}/rotate`: rotates a client's secret, guarded by the admin token. */
export function createAdminRotateEndpoint(deps: AdminEndpointDeps): Handler {
  return async (req: IncomingMessage, res: ServerResponse, clientId: string): Promise<void> => {
    const presented = bearerOf(req);
    // Authentication comes first, so an unauthenticated caller learns nothing about which clients exist.
    if (presented === undefined) {
      replyError(res, 401, "unauthorized", "The admin endpoint needs Authorization: Bearer <admin token>", {
        "www-authenticate": `Bearer realm="${ADMIN_REALM}"`,
      });
      return;
    }
    if (!deps.guard.matches(presented)) {
      replyError(res, 401, "invalid_token", "The admin token is not valid", {
        "www-authenticate": `Bearer realm="${ADMIN_REALM}", error="invalid_token"`,
      });
      return;
    }
    if (!deps.clients.has(clientId)) {
      replyError(res, 404, "not_found", "No client with this id is registered");
      return;
    }
    const body = await readBody(req, MAX_ADMIN_BODY_BYTES);
    if (!body.ok) {
      if (body.reason === "aborted") return;
      res.setHeader("connection", "close");
      replyError(res, 413, "invalid_request", "The request body is too large");
      return;
    }
    const contentType = req.headers["content-type"];
    if (body.body.length > 0 && !isJsonContentType(contentType)) {
      replyError(res, 415, "invalid_request", "Send the body as application/json");
      return;
    }
    const parsed = parseRotationBody(body.body.toString("utf8"));
    if (!parsed.ok) {
      replyError(res, 400, "invalid_request", parsed.reason);
      return;
    }
    const outcome = deps.rotate(clientId, parsed.request);
    replyJson(
      res,
      200,
      JSON.stringify({
        client_id: outcome.clientId,
        client_secret: outcome.clientSecret,
        "not-before-policy": outcome.notBeforePolicy,
        old_secret_valid_until:
          outcome.oldSecretValidUntil === undefined ? null : Math.ceil(outcome.oldSecretValidUntil / 1000),
      }),
      NO_STORE_HEADERS,
    );
  };
}
