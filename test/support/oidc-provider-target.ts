import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from "jose";
import Provider, { errors } from "oidc-provider";
import { eventSchemas } from "../../domain/index.ts";
import { type Loopback, listenOnLoopback } from "./loopback.ts";

/**
 * A real third-party authorization server as a target: oidc-provider 9 issuing client-credentials JWTs for the API's
 * resource (RFC 8707), beside a small events API that verifies them with jose against the provider's JWKS. Its
 * lifetime is fixed from issue, as real servers have it (shared/notes/real-servers.md), so only sliding expiry fails.
 */
export interface OidcProviderTarget {
  /** The token endpoint, `{issuer}/token`. */
  readonly tokenUrl: string;
  readonly issuer: string;
  /** The events API's base URL; also the resource (RFC 8707) and the tokens' audience. */
  readonly baseUrl: string;
  readonly clientId: string;
  /** Replaces the provider by a new one whose client has this secret (same keys: earlier tokens stay valid). */
  restartWithSecret(secret: string): Promise<void>;
  close(): Promise<void>;
}

export interface OidcProviderTargetOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The access token's lifetime in seconds, fixed from issue. */
  readonly ttl: number;
  /** Tokens are JWTs for the API only when the request names it in `resource`; else oidc-provider picks it. */
  readonly requireResource?: boolean;
  /** Whether the API has `GET /events/{ref}` (many have none). */
  readonly readBack?: boolean;
}

const MAX_BODY_BYTES = 64 * 1024;

function readBody(req: IncomingMessage): Promise<{ readonly text: string; readonly tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () =>
      resolve({ text: Buffer.concat(chunks).toString("utf8"), tooLarge: size > MAX_BODY_BYTES }),
    );
    req.on("error", reject);
  });
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Starts the provider and the events API on 127.0.0.1, port 0 each. */
export async function startOidcProviderTarget(
  options: OidcProviderTargetOptions,
): Promise<OidcProviderTarget> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "harness-test", alg: "ES256", use: "sig" };
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const auth: Loopback = await listenOnLoopback(createServer((req, res) => handle(req, res)));
  const issuer = auth.url;
  const events = createServer();
  const api: Loopback = await listenOnLoopback(events);
  const resource = api.url;

  function makeProvider(secret: string): Provider {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: options.clientId,
          client_secret: secret,
          grant_types: ["client_credentials"],
          redirect_uris: [],
          response_types: [],
          scope: "profile email",
          // The only signing key is ES256; the client's default (RS256) would make the provider refuse it.
          id_token_signed_response_alg: "ES256",
        },
      ],
      jwks: { keys: [signingKey] },
      scopes: ["profile", "email"],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => (options.requireResource === true ? undefined : resource),
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget();
            return {
              audience: resource,
              scope: "profile email",
              accessTokenTTL: options.ttl,
              accessTokenFormat: "jwt",
              jwt: { sign: { alg: "ES256" } },
            };
          },
        },
      },
      ttl: { ClientCredentials: options.ttl },
    });
    // oidc-provider logs every server error through its own listener; a test keeps its output for its own lines.
    provider.on("server_error", () => {});
    return provider;
  }

  handle = makeProvider(options.clientSecret).callback();
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const validate = eventSchemas.production;
  const references = new Set<string>();
  const stored = new Map<string, unknown>();

  events.on("request", (req, res) => {
    void (async () => {
      const body = await readBody(req);
      const match = /^Bearer ([^\s]+)$/.exec(req.headers.authorization ?? "");
      const challenge = 'Bearer realm="events"';
      if (match?.[1] === undefined) {
        json(res, 401, { Message: "Unauthorized" }, { "www-authenticate": challenge });
        return;
      }
      try {
        await jwtVerify(match[1], jwks, { issuer, audience: resource, algorithms: ["ES256"] });
      } catch (error) {
        const code = (error as { code?: string }).code ?? "ERR_JWT_INVALID";
        json(
          res,
          401,
          { Message: "Unauthorized" },
          { "www-authenticate": `${challenge}, error="invalid_token", error_description="${code}"` },
        );
        return;
      }
      const read = /^\/events\/([^/]+)$/.exec(req.url ?? "");
      if (req.method === "GET" && read?.[1] !== undefined && options.readBack === true) {
        const event = stored.get(decodeURIComponent(read[1]));
        if (event === undefined) json(res, 404, { Message: "No such event" });
        else json(res, 200, event);
        return;
      }
      if (req.method !== "POST" || req.url !== "/events") {
        json(res, 404, { Message: "Not found" });
        return;
      }
      if (body.tooLarge) {
        json(res, 413, { Message: "Request body too large" });
        return;
      }
      if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
        json(res, 415, { Message: "Send the event as application/json" });
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(body.text);
      } catch {
        json(res, 400, { Message: "The body is not valid JSON" });
        return;
      }
      const result = validate.safeParse(value);
      if (!result.success) {
        json(res, 400, {
          Message: "Invalid event",
          Errors: result.error.issues.map((issue) => ({
            path: issue.path.join("."),
            message: issue.message,
          })),
        });
        return;
      }
      const reference = result.data.transaction.reference;
      if (references.has(reference)) {
        json(res, 409, { Message: "This transaction reference was already used" });
        return;
      }
      references.add(reference);
      const id = `evt-${randomUUID()}`;
      stored.set(id, value);
      json(res, 202, { Message: `Your event (\`${id}\`) was accepted for processing.`, EventRef: id });
    })().catch(() => json(res, 500, { Message: "Internal server error" }));
  });

  return {
    tokenUrl: `${issuer}/token`,
    issuer,
    baseUrl: resource,
    clientId: options.clientId,
    async restartWithSecret(secret) {
      handle = makeProvider(secret).callback();
    },
    async close() {
      await Promise.all([auth.close(), api.close()]);
    },
  };
}
