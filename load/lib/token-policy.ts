import type { ClientModel } from "./client-models.ts";

/** What a VU knows about the token it holds; times are the VU's clock in milliseconds. */
export interface HeldToken {
  /** When the token response arrived. */
  readonly issuedAtMs: number;
  /** The token response's expires_in: the lifetime counted from last use (spec rule 6). */
  readonly expiresInSeconds: number;
  /** When the API last accepted the token (2xx), or undefined before its first use. */
  readonly lastSuccessAtMs: number | undefined;
}

/** Why a VU asks for a token; every reason but `initial` and `per-iteration` replaces a held token (a refresh). */
export type TokenRequestReason = "initial" | "idle" | "lifetime" | "rejected" | "per-iteration";

export const REFRESH_REASONS: readonly TokenRequestReason[] = ["idle", "lifetime", "rejected"];

/** The reference point of sliding expiry: the last accepted use, or the issue time before any use. */
export function lastUseMs(token: HeldToken): number {
  return token.lastSuccessAtMs ?? token.issuedAtMs;
}

/** How long the token has been idle, as the client sees it. (No Math.max: a k6 VU would build Math just for it.) */
export function idleMs(token: HeldToken, nowMs: number): number {
  const idle = nowMs - lastUseMs(token);
  return idle > 0 ? idle : 0;
}

/**
 * Decides, before a request, whether the client model fetches a token first. `newIteration` is true for the first
 * request of an iteration. `marginMs` is how early the client refreshes before the token would expire.
 */
export function tokenRequestReason(
  model: ClientModel,
  token: HeldToken | undefined,
  nowMs: number,
  marginMs: number,
  newIteration: boolean,
): TokenRequestReason | undefined {
  if (token === undefined)
    return model === "token-per-iteration" && newIteration ? "per-iteration" : "initial";
  const lifetimeMs = token.expiresInSeconds * 1000;
  switch (model) {
    case "sliding":
      return idleMs(token, nowMs) >= lifetimeMs - marginMs ? "idle" : undefined;
    case "cache-until-expiry":
      return nowMs - token.issuedAtMs >= lifetimeMs - marginMs ? "lifetime" : undefined;
    case "token-per-iteration":
      return newIteration ? "per-iteration" : undefined;
    case "refresh-on-401":
      return undefined;
  }
}

/**
 * Classifies a 401 on an event request. A token last used less than expires_in − skew ago must still be valid under
 * sliding expiry, so its rejection breaks the contract; an older one expired as the spec says it may.
 */
export type RejectionVerdict = "unexpected-expiry" | "idle-expiry";

export function classifyRejection(token: HeldToken, nowMs: number, skewMs: number): RejectionVerdict {
  return idleMs(token, nowMs) < token.expiresInSeconds * 1000 - skewMs ? "unexpected-expiry" : "idle-expiry";
}

/** True when the API accepted a token left idle for expires_in + skew or longer: idle tokens must expire (rule 6). */
export function outlivedIdle(token: HeldToken, sentAtMs: number, skewMs: number): boolean {
  return idleMs(token, sentAtMs) >= token.expiresInSeconds * 1000 + skewMs;
}

/**
 * True when the API accepted a token idle for more than half of expires_in + skew (and less than the outlived bound):
 * it does not expire idle tokens early.
 */
export function survivedIdle(token: HeldToken, sentAtMs: number, skewMs: number): boolean {
  const idle = idleMs(token, sentAtMs);
  const lifetimeMs = token.expiresInSeconds * 1000;
  return idle >= lifetimeMs / 2 + skewMs && idle < lifetimeMs + skewMs;
}

/**
 * True when the API accepted a token expires_in + skew or longer after its issue: its lifetime slid with use (rule 6),
 * where a lifetime fixed from issue would have ended.
 */
export function extendedPastIssue(token: HeldToken, sentAtMs: number, skewMs: number): boolean {
  return sentAtMs - token.issuedAtMs >= token.expiresInSeconds * 1000 + skewMs;
}

/** The default refresh margin: a tenth of the lifetime, at most 30 s, so short test lifetimes still work. */
export function defaultMarginSeconds(expiresInSeconds: number): number {
  return Math.min(30, Math.round(expiresInSeconds * 100) / 1000);
}
