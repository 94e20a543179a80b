import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from "jose";
import Provider, { errors } from "oidc-provider";
import { bearerEventsApi } from "./bearer-events-api.ts";
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
  const eventsApi = bearerEventsApi({
    verify: async (token) => {
      try {
        await jwtVerify(token, jwks, { issuer, audience: resource, algorithms: ["ES256"] });
        return undefined;
      } catch (error) {
        return (error as { code?: string }).code ?? "ERR_JWT_INVALID";
      }
    },
    ...(options.readBack === undefined ? {} : { readBack: options.readBack }),
  });
  events.on("request", (req, res) => eventsApi(req, res, req.url ?? ""));

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
