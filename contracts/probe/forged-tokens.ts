import { randomBytes } from "node:crypto";
import { base64url, decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from "jose";

/** Algorithms the harness can forge a signature with; anything else falls back to ES256. */
const FORGEABLE = new Set(["ES256", "ES384", "RS256", "RS384", "RS512", "PS256", "EdDSA"]);

export interface JwsParts {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
  readonly segments: readonly [string, string, string];
}

/** Splits a JWS compact serialisation, or returns undefined when the token is not one. */
export function parseJws(token: string): JwsParts | undefined {
  const segments = token.split(".");
  if (segments.length !== 3) return undefined;
  try {
    const header = decodeProtectedHeader(token) as Record<string, unknown>;
    const payload = decodeJwt(token) as Record<string, unknown>;
    return { header, payload, segments: segments as [string, string, string] };
  } catch {
    return undefined;
  }
}

function encodeSegment(value: unknown): string {
  return base64url.encode(JSON.stringify(value));
}

/** Same header and signature, payload changed: a server that checks signatures must refuse it. */
export function tamperedToken(parts: JwsParts): string {
  const payload = {
    ...parts.payload,
    sub: `${String(parts.payload.sub ?? "client")}-tampered`,
    scope: "admin",
  };
  return `${parts.segments[0]}.${encodeSegment(payload)}.${parts.segments[2]}`;
}

/** The real claims re-encoded as an unsecured JWT (RFC 8725 §3.1: `alg: none` must be refused). */
export function algNoneToken(parts: JwsParts): string {
  const { kid: _kid, ...header } = parts.header;
  return `${encodeSegment({ ...header, alg: "none", typ: "JWT" })}.${parts.segments[1]}.`;
}

/** The real claims signed with a key the harness just made up, under the real `kid` (RFC 8725 §3.10). */
export async function foreignKeyToken(parts: JwsParts): Promise<string> {
  const requested = String(parts.header.alg ?? "");
  const alg = FORGEABLE.has(requested) ? requested : "ES256";
  const { privateKey } = await generateKeyPair(alg, { extractable: false });
  return new SignJWT(parts.payload)
    .setProtectedHeader({ ...parts.header, alg } as { alg: string })
    .sign(privateKey);
}

/** The token with the end of its signature cut off. */
export function truncatedToken(token: string): string {
  return token.slice(0, Math.max(1, token.length - Math.max(8, Math.floor(token.length / 10))));
}

/** A random string that is no token at all. */
export function garbageToken(): string {
  return `not-a-token-${randomBytes(12).toString("hex")}`;
}
