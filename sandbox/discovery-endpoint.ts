import { replyJson } from "./http-reply.ts";
import type { Handler } from "./router.ts";

export interface DiscoveryFacts {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly jwksUri: string;
  /** HTTP Basic client authentication is accepted (off under `token-no-basic-auth`). */
  readonly basicAllowed: boolean;
  /** Credentials as form fields are accepted (off under `token-basic-only`). */
  readonly formCredentialsAllowed: boolean;
}

/**
 * The authorisation server's metadata (RFC 8414 §2; OpenID Connect Discovery reads the same document): only what the
 * sandbox does, so the client authentication methods follow the faults that turn one off.
 */
export function serverMetadata(facts: DiscoveryFacts): Record<string, unknown> {
  const methods = [
    ...(facts.formCredentialsAllowed ? ["client_secret_post"] : []),
    ...(facts.basicAllowed ? ["client_secret_basic"] : []),
  ];
  return {
    issuer: facts.issuer,
    token_endpoint: facts.tokenEndpoint,
    jwks_uri: facts.jwksUri,
    grant_types_supported: ["client_credentials"],
    // REQUIRED by RFC 8414; the sandbox has no authorization endpoint, so it supports no response type.
    response_types_supported: [],
    token_endpoint_auth_methods_supported: methods,
  };
}

/** `GET {issuer}/.well-known/openid-configuration` and RFC 8414's `/.well-known/oauth-authorization-server/{path}`. */
export function createDiscoveryEndpoint(facts: DiscoveryFacts): Handler {
  const body = JSON.stringify(serverMetadata(facts));
  return (_req, res) => {
    replyJson(res, 200, body, { "cache-control": "public, max-age=300" });
  };
}
