import type { Secret } from "./secret.ts";

/** Where and as whom the harness talks to the API under test. */
export interface Target {
  /** {auth_url}: the token endpoint is `${authUrl}/oauth/token`. */
  readonly authUrl: string;
  /** {base_url}: events go to `${baseUrl}/events`. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** The `audience` form field; the spec says it is {base_url}. */
  readonly audience: string;
  /** A channel the credentials may post to, when the target restricts channels. */
  readonly channelId?: string;
  /** Per-request timeout. */
  readonly timeoutMs: number;
  /** True when the target is the harness's own in-process sandbox. */
  readonly embedded: boolean;
}

export function tokenUrl(target: Pick<Target, "authUrl">): string {
  return `${target.authUrl}/oauth/token`;
}

export function eventsUrl(target: Pick<Target, "baseUrl">): string {
  return `${target.baseUrl}/events`;
}
