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
