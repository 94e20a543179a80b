import { createServer } from "node:http";
import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import { bearerEventsApi } from "../bearer-events-api.ts";
import { type Loopback, listenOnLoopback } from "../loopback.ts";

/** The realm the APIs trust: its issuer, and the API's own client (the tokens' audience, and who introspects). */
export interface TrustedRealm {
  readonly issuer: string;
  readonly apiClientId: string;
  readonly apiClientSecret: string;
}

/**
 * The events API twice, as resource servers check Keycloak's tokens: `signatureOnly` verifies each JWT with jose
 * against the realm's JWKS (the key chosen by `kid`, then `iss`, `aud` and `exp`), so a revoked token still works
 * until its `exp`; `introspecting` asks Keycloak about each token (RFC 7662, as the API's own client) and takes only
 * an active one meant for it, so a revoked token is refused at once.
 */
export interface KeycloakEventsApis {
  readonly signatureOnly: string;
  readonly introspecting: string;
  /** Introspection requests the introspecting API has sent. */
  readonly introspections: () => number;
  close(): Promise<void>;
}

interface Metadata {
  readonly issuer: string;
  readonly jwks_uri: string;
  readonly introspection_endpoint: string;
}

/** Starts both APIs on 127.0.0.1, port 0 each, configured from the realm's discovery document. */
export async function startKeycloakEventsApis(realm: TrustedRealm): Promise<KeycloakEventsApis> {
  const answer = await fetch(`${realm.issuer}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(10_000),
  });
  const metadata = (await answer.json()) as Metadata;
  if (metadata.issuer !== realm.issuer)
    throw new Error(`the realm's metadata names the issuer ${metadata.issuer}`);
  // jose picks the key whose kid the token names (and refetches the set when a kid is new).
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: 10_000 });
  const signatureOnly = bearerEventsApi({
    async verify(token) {
      try {
        await jwtVerify(token, jwks, {
          issuer: realm.issuer,
          audience: realm.apiClientId,
          algorithms: ["RS256"],
          requiredClaims: ["exp"],
        });
        return undefined;
      } catch (error) {
        return error instanceof errors.JOSEError ? error.code : "ERR_JWT_INVALID";
      }
    },
    readBack: true,
  });
  let introspections = 0;
  const basic = Buffer.from(
    `${encodeURIComponent(realm.apiClientId)}:${encodeURIComponent(realm.apiClientSecret)}`,
  ).toString("base64");
  const introspecting = bearerEventsApi({
    async verify(token) {
      introspections += 1;
      const response = await fetch(metadata.introspection_endpoint, {
        method: "POST",
        headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status !== 200) return `introspection answered ${response.status}`;
      const claims = (await response.json()) as { active?: unknown; aud?: unknown; iss?: unknown };
      if (claims.active !== true) return "the token is not active";
      const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (claims.iss !== realm.issuer || !audience.includes(realm.apiClientId))
        return "the token is not for this API";
      return undefined;
    },
    readBack: true,
  });
  const servers: Loopback[] = [];
  for (const api of [signatureOnly, introspecting]) {
    const server = createServer();
    server.on("request", (req, res) => api(req, res, req.url ?? ""));
    servers.push(await listenOnLoopback(server));
  }
  const [first, second] = servers as [Loopback, Loopback];
  return {
    signatureOnly: first.url,
    introspecting: second.url,
    introspections: () => introspections,
    async close() {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}
