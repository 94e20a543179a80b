import { decodeJwt } from "jose";
import { challengesOf } from "../probe/auth-challenges.ts";
import type { HttpResponse } from "../probe/http-request.ts";
import { jsonObject } from "./describe.ts";

/** Whether a refused earlier token had simply outlived its lifetime, with the evidence in words. */
export interface OldTokenState {
  readonly state: "expired" | "not-expired" | "unknown";
  readonly why: string;
}

/** The reason a refusal gives: a Bearer challenge's error_description, else the body's description or `Message`. */
function refusalDescription(response: HttpResponse): string | undefined {
  for (const bearer of challengesOf(response.headers["www-authenticate"] ?? "", "Bearer")) {
    const description = bearer.params.get("error_description");
    if (description !== undefined && description.trim() !== "") return description;
  }
  const body = jsonObject(response);
  for (const field of ["error_description", "Message", "message"]) {
    const value = body?.[field];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}

/** The token's iat and exp in seconds when it is a JWT (read, not verified: only its own claims are wanted). */
function claimsOf(token: string): { readonly iat?: number; readonly exp?: number } {
  try {
    const { iat, exp } = decodeJwt(token);
    return { ...(typeof iat === "number" ? { iat } : {}), ...(typeof exp === "number" ? { exp } : {}) };
  } catch {
    return {};
  }
}

/**
 * Tells an earlier token that expired from one the rotation revoked: from the token's own `exp`, then the refusal's
 * description when it names one reason only (an introspecting API names both at once), then its age against the
 * target's expires_in (no lifetime, fixed or sliding, ends before expires_in).
 */
export function oldTokenState(
  token: string,
  refusal: HttpResponse,
  nowMs: number,
  expiresInSeconds: number | undefined,
  quote: (value: string) => string,
): OldTokenState {
  const { iat, exp } = claimsOf(token);
  const now = nowMs / 1000;
  if (exp !== undefined && exp <= now) {
    return {
      state: "expired",
      why: `its exp ${new Date(exp * 1000).toISOString()} passed ${Math.round(now - exp)} s ago`,
    };
  }
  const description = refusalDescription(refusal);
  const says = description === undefined ? undefined : `the ${refusal.status} says "${quote(description)}"`;
  const namesExpiry = description !== undefined && /expir/i.test(description);
  const namesRevocation = description !== undefined && /revok/i.test(description);
  if (namesExpiry && !namesRevocation) return { state: "expired", why: says as string };
  if (namesRevocation && !namesExpiry) return { state: "not-expired", why: says as string };
  const unclear =
    says === undefined
      ? "the refusal does not say why"
      : `${says}, which ${namesExpiry ? "names both" : "names neither"}`;
  if (iat !== undefined && expiresInSeconds !== undefined) {
    const age = Math.max(0, Math.round(now - iat));
    return age < expiresInSeconds
      ? { state: "not-expired", why: `issued ${age} s ago, within expires_in ${expiresInSeconds} s` }
      : {
          state: "unknown",
          why: `issued ${age} s ago, longer than expires_in ${expiresInSeconds} s, when it was last used is not known, and ${unclear}`,
        };
  }
  return {
    state: "unknown",
    why:
      iat === undefined
        ? `the token carries no iat or exp the harness can read, and ${unclear}`
        : `the target's expires_in is not known, and ${unclear}`,
  };
}
