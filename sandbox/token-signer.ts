import { randomUUID } from "node:crypto";
import type { CryptoKey, JSONWebKeySet, JWTPayload } from "jose";
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
} from "jose";

/** ES256: production signs with RS256, but ES256 keys are generated in milliseconds and sign faster. */
export const SIGNING_ALGORITHM = "ES256";
/** RFC 9068 media type of JWT access tokens. */
const TOKEN_TYPE_HEADER = "at+jwt";
export const GRANTED_SCOPE = "profile email";

export interface AccessTokenClaims {
  readonly clientId: string;
  /** Epoch ms of issue. */
  readonly issuedAt: number;
  /** Epoch ms of the hard `exp`. */
  readonly expiresAt: number;
}

/** Why a token that is not in the token store was refused; the text goes into error_description. */
export type VerifyOutcome =
  | { readonly valid: true; readonly payload: JWTPayload }
  | { readonly valid: false; readonly problem: TokenProblem };

export type TokenProblem =
  | "malformed"
  | "unsigned"
  | "algorithm"
  | "signature"
  | "audience"
  | "issuer"
  | "claims"
  | "expired";

export const PROBLEM_DESCRIPTIONS: Readonly<Record<TokenProblem | "refused" | "revoked", string>> = {
  malformed: "The access token is not a well-formed JWT",
  unsigned: "Unsigned access tokens (alg none) are not accepted",
  algorithm: "The access token is signed with an algorithm that is not accepted",
  signature: "The access token signature is invalid",
  audience: "The access token is not meant for this API",
  issuer: "The access token was not issued by this server",
  claims: "The access token claims are not valid",
  expired: "The access token expired",
  refused: "The access token is not accepted",
  revoked: "The access token was revoked",
};

/** A key pair generated at start, with its JWK thumbprint as `kid` and the public JWKS. */
export interface SigningKeys {
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly kid: string;
  readonly jwks: JSONWebKeySet;
}

/** Generates the signing keys; done before the server listens, so no request can arrive before they exist. */
export async function generateSigningKeys(): Promise<SigningKeys> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM);
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    privateKey,
    publicKey,
    kid,
    jwks: { keys: [{ ...jwk, kid, alg: SIGNING_ALGORITHM, use: "sig" }] },
  };
}

/** Signs access tokens and verifies the strings the token store does not know. */
export class TokenSigner {
  readonly #privateKey: CryptoKey;
  readonly #publicKey: CryptoKey;
  readonly kid: string;
  /** The public key set served at the JWKS URL. */
  readonly jwks: JSONWebKeySet;
  readonly issuer: string;
  readonly audience: string;

  constructor(keys: SigningKeys, urls: { readonly issuer: string; readonly audience: string }) {
    this.#privateKey = keys.privateKey;
    this.#publicKey = keys.publicKey;
    this.kid = keys.kid;
    this.jwks = keys.jwks;
    this.issuer = urls.issuer;
    this.audience = urls.audience;
  }

  #payload(claims: AccessTokenClaims): JWTPayload {
    return {
      iss: this.issuer,
      sub: claims.clientId,
      aud: this.audience,
      iat: Math.floor(claims.issuedAt / 1000),
      exp: Math.floor(claims.expiresAt / 1000),
      jti: randomUUID(),
      scope: GRANTED_SCOPE,
      client_id: claims.clientId,
    };
  }

  sign(claims: AccessTokenClaims): Promise<string> {
    return new SignJWT(this.#payload(claims))
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: this.kid, typ: TOKEN_TYPE_HEADER })
      .sign(this.#privateKey);
  }

  /** An `alg: none` token with the same claims (the `token-unsigned` fault). */
  signUnsecured(claims: AccessTokenClaims): string {
    return new UnsecuredJWT(this.#payload(claims)).encode();
  }

  /** Full verification (RFC 8725: the algorithm is fixed, never taken from the token). */
  async verify(token: string, now: number): Promise<VerifyOutcome> {
    const header = safeHeader(token);
    if (header === undefined) return { valid: false, problem: "malformed" };
    if (header.alg === "none") return { valid: false, problem: "unsigned" };
    if (header.alg !== SIGNING_ALGORITHM) return { valid: false, problem: "algorithm" };
    try {
      const { payload } = await jwtVerify(token, this.#publicKey, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.issuer,
        audience: this.audience,
        currentDate: new Date(now),
      });
      return { valid: true, payload };
    } catch (error) {
      return { valid: false, problem: classify(error) };
    }
  }

  /**
   * Reads the claims without checking the signature and says whether they look like one of ours: right issuer and
   * audience, not past `exp`, a subject. Only the bearer faults that skip signature checks use this.
   */
  claimsLookRight(token: string, now: number): JWTPayload | undefined {
    let payload: JWTPayload;
    try {
      payload = decodeJwt(token);
    } catch {
      return undefined;
    }
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const fresh = typeof payload.exp === "number" && payload.exp * 1000 > now;
    const looksRight =
      payload.iss === this.issuer &&
      audiences.includes(this.audience) &&
      fresh &&
      typeof payload.sub === "string" &&
      payload.sub.length > 0;
    return looksRight ? payload : undefined;
  }
}

/** The protected header of a three-part compact JWS, or undefined when it is not one. */
export function safeHeader(token: string): { alg?: string } | undefined {
  if (token.split(".").length !== 3) return undefined;
  try {
    return decodeProtectedHeader(token);
  } catch {
    return undefined;
  }
}

function classify(error: unknown): TokenProblem {
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature";
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JOSEAlgNotAllowed) return "algorithm";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "audience";
    if (error.claim === "iss") return "issuer";
    return "claims";
  }
  return "malformed";
}
