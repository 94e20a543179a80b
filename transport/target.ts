import { SPEC_TOKEN_PATH } from "../domain/index.ts";
import type { Connection } from "./connection/index.ts";
import type { Secret } from "./secret.ts";

/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
export const CLIENT_AUTH_METHODS = ["post", "basic"] as const;
/** `post`: client_id and client_secret as form fields (the spec's request); `basic`: an HTTP Basic header. */
export type ClientAuth = (typeof CLIENT_AUTH_METHODS)[number];

/** Where and as whom the harness talks to the API under test. */
export interface Target {
  /** The full token endpoint: `{auth_url}/oauth/token` unless the user named another (see resolveTokenUrl). */
  readonly tokenUrl: string;
  /** {base_url}: events go to `${baseUrl}/events`. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** The `audience` form field; the spec says it is {base_url}; not sent when undefined (`--audience none`). */
  readonly audience?: string;
  readonly clientAuth: ClientAuth;
  /**
   * The user named the client authentication (flag, variable or config file): it is binding, and the preflight may
   * only say what would work. Absent or false, the method was defaulted and the preflight may switch it.
   */
  readonly clientAuthGiven?: boolean;
  /** The `scope` form field, sent only when the user gives one. */
  readonly scope?: string;
  /** The RFC 8707 `resource` form field (`--resource`), sent only when given. */
  readonly resource?: string;
  /** Further form fields of every token request (`--token-param NAME=VALUE`): a server's own parameters. */
  readonly tokenParams?: Readonly<Record<string, string>>;
  /** A channel the credentials may post to, when the target restricts channels. */
  readonly channelId?: string;
  /** Per-request timeout. */
  readonly timeoutMs: number;
  /** TLS and proxy settings of every request to the target. */
  readonly connection: Connection;
  /** True when the target is the harness's own in-process sandbox. */
  readonly embedded: boolean;
  /** The issuer whose metadata named the token endpoint (`--issuer`), when one did. */
  readonly issuer?: string;
  /**
   * That issuer's RFC 7662 introspection endpoint, when its metadata names one: verify-rotation asks it whether a
   * refused or accepted old token is still active. The client authenticates there as at the token endpoint.
   */
  readonly introspectionEndpoint?: string;
}

/**
 * The token endpoint's origin when an issuer's metadata put it on another origin than the issuer's own (legitimate,
 * Entra ID does it, but every header and report names it); undefined otherwise.
 */
export function foreignTokenOrigin(target: {
  readonly tokenUrl: string;
  readonly issuer?: string | undefined;
}): string | undefined {
  if (target.issuer === undefined) return undefined;
  const origin = new URL(target.tokenUrl).origin;
  return origin === new URL(target.issuer).origin ? undefined : origin;
}

/** Where tokens come from, as headers and reports record it: the issuer, and the origin when it is another. */
export interface TokenEndpointFacts {
  readonly tokenUrl: string;
  readonly issuer?: string;
  /** Present only when foreignTokenOrigin found one. */
  readonly tokenEndpointOrigin?: string;
}

export function tokenEndpointFacts(target: Pick<Target, "tokenUrl" | "issuer">): TokenEndpointFacts {
  const origin = foreignTokenOrigin(target);
  return {
    tokenUrl: target.tokenUrl,
    ...(target.issuer === undefined ? {} : { issuer: target.issuer }),
    ...(origin === undefined ? {} : { tokenEndpointOrigin: origin }),
  };
}

/** The same facts with each URL passed through `show` (redacted as a value, for one). */
export function mapTokenEndpointFacts(
  facts: TokenEndpointFacts,
  show: (url: string) => string,
): TokenEndpointFacts {
  const { tokenUrl, issuer, tokenEndpointOrigin } = facts;
  return {
    tokenUrl: show(tokenUrl),
    ...(issuer === undefined ? {} : { issuer: show(issuer) }),
    ...(tokenEndpointOrigin === undefined ? {} : { tokenEndpointOrigin: show(tokenEndpointOrigin) }),
  };
}

/**
 * "token endpoint X on O, another origin than the issuer I": how every header and report names the token endpoint;
 * `show` formats each URL (redacts it, or makes it a Markdown code span), never the harness's own words.
 */
export function describeTokenEndpoint(
  facts: TokenEndpointFacts,
  show: (url: string) => string = (url) => url,
): string {
  const { tokenUrl, issuer, tokenEndpointOrigin: origin } = facts;
  const foreign =
    origin === undefined || issuer === undefined
      ? ""
      : ` on ${show(origin)}, another origin than the issuer ${show(issuer)}`;
  return `token endpoint ${show(tokenUrl)}${foreign}`;
}

/** The one place that decides the token endpoint: the user's full URL, else the spec's path under {auth_url}. */
export function resolveTokenUrl(where: { readonly authUrl?: string; readonly tokenUrl?: string }): string {
  if (where.tokenUrl !== undefined) return where.tokenUrl;
  if (where.authUrl !== undefined) return `${where.authUrl.replace(/\/+$/, "")}${SPEC_TOKEN_PATH}`;
  throw new Error("a target needs an auth URL or a token URL");
}

export function eventsUrl(target: Pick<Target, "baseUrl">): string {
  return `${target.baseUrl}/events`;
}
