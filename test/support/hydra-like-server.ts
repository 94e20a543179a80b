import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { test } from "./fixtures.ts";
import type { Loopback } from "./loopback.ts";
import { listenOnLoopback } from "./loopback.ts";

/**
 * A token endpoint with Ory Hydra v2's habits (shared/notes/real-servers.md): the client has one auth method,
 * client_secret_basic; an `audience` it was not registered for is refused with 400 invalid_request, the specific
 * reason at the END of a long error_description; it grants only the scopes asked for. The descriptions are Hydra's.
 */
export interface HydraLikeServer extends Loopback {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The audiences the client is registered for. */
  readonly audiences: readonly string[];
  /** The form of every token request, in order. */
  readonly forms: readonly URLSearchParams[];
}

const INVALID_REQUEST =
  "The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.";
const INVALID_CLIENT =
  "Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method).";

export async function startHydraLikeServer(
  options: { readonly audiences?: readonly string[] } = {},
): Promise<HydraLikeServer> {
  const clientId = "hydra-client";
  const clientSecret = "hydra-secret-9f2c";
  const audiences = options.audiences ?? ["https://api.example.com"];
  const forms: URLSearchParams[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString());
    forms.push(form);
    const answer = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, {
        "content-type": "application/json;charset=UTF-8",
        "cache-control": "no-store",
      });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/oauth2/token") return answer(404, { error: "not_found" });
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [id, secret] = Buffer.from(basic ?? "", "base64")
      .toString()
      .split(":")
      .map(decodeURIComponent);
    if (basic === undefined) {
      return answer(401, {
        error: "invalid_client",
        error_description: `${INVALID_CLIENT} The OAuth 2.0 Client supports client authentication method 'client_secret_basic', but method 'client_secret_post' was requested. You must configure the OAuth 2.0 client's 'token_endpoint_auth_method' value to accept 'client_secret_post'.`,
      });
    }
    if (id !== clientId || secret !== clientSecret) {
      return answer(401, { error: "invalid_client", error_description: INVALID_CLIENT });
    }
    if (form.get("grant_type") !== "client_credentials") {
      return answer(400, { error: "unsupported_grant_type" });
    }
    const audience = form.get("audience");
    if (audience !== null && !audiences.includes(audience)) {
      return answer(400, {
        error: "invalid_request",
        error_description: `${INVALID_REQUEST} Requested audience '${audience}' has not been whitelisted by the OAuth 2.0 Client.`,
      });
    }
    const scope = form.get("scope");
    return answer(200, {
      access_token: `ory_at_${randomBytes(24).toString("base64url")}.${randomBytes(24).toString("base64url")}`,
      expires_in: 299,
      ...(scope === null ? {} : { scope }),
      token_type: "bearer",
    });
  });
  const loopback = await listenOnLoopback(server);
  return { ...loopback, tokenUrl: `${loopback.url}/oauth2/token`, clientId, clientSecret, audiences, forms };
}

/** The shared fixtures plus `hydra`: one Hydra-like token endpoint per file, closed after its last test. */
export const hydraTest = test.extend(
  "hydra",
  { scope: "file" },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
  async ({}, { onCleanup }) => {
    const hydra = await startHydraLikeServer();
    onCleanup(() => hydra.close());
    return hydra;
  },
);
