import type { JSONWebKeySet } from "jose";
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CLIENT } from "../../sandbox/index.ts";
import type { SigningKeys } from "../../sandbox/token-signer.ts";
import { generateSigningKeys, TokenSigner } from "../../sandbox/token-signer.ts";
import type { TestSandbox } from "./support.ts";
import { send, startTestSandbox } from "./support.ts";

describe("access tokens over HTTP", () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox({ maxTokenAgeSeconds: 7200 });
  });
  afterAll(() => t.sandbox.close());

  it("are ES256 JWS with a kid and typ at+jwt, verifiable with the published JWKS", async () => {
    const token = await t.token();
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: "ES256", typ: "at+jwt" });
    expect(typeof header.kid).toBe("string");

    const jwksAnswer = await send(t.sandbox.jwksUrl);
    expect(jwksAnswer.status).toBe(200);
    const jwks = jwksAnswer.json as JSONWebKeySet;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({
      kty: "EC",
      crv: "P-256",
      kid: header.kid,
      alg: "ES256",
      use: "sig",
    });
    expect(jwks.keys[0]).not.toHaveProperty("d");

    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: t.sandbox.authUrl,
      audience: t.sandbox.baseUrl,
      algorithms: ["ES256"],
      currentDate: new Date(t.clock.now()),
    });
    const iat = Math.floor(t.clock.now() / 1000);
    expect(payload).toMatchObject({
      iss: t.sandbox.authUrl,
      sub: DEMO_CLIENT.clientId,
      aud: t.sandbox.baseUrl,
      client_id: DEMO_CLIENT.clientId,
      scope: "profile email",
      iat,
      // The hard cap, far above expires_in: sliding expiry is what ends a token's life.
      exp: iat + 7200,
    });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("TokenSigner.verify", () => {
  const now = 1_800_000_000_000;
  const claims = { clientId: "c", issuedAt: now, expiresAt: now + 3_600_000 };
  let keys: SigningKeys;
  let signer: TokenSigner;
  beforeAll(async () => {
    keys = await generateSigningKeys();
    signer = new TokenSigner(keys, { issuer: "http://iss", audience: "http://aud" });
  });

  it("accepts its own token and names each kind of bad token", async () => {
    const token = await signer.sign(claims);
    expect(await signer.verify(token, now)).toMatchObject({ valid: true });

    // The same key pair under another audience or issuer: genuinely signed tokens for the wrong API.
    const elsewhere = new TokenSigner(keys, { issuer: "http://iss", audience: "http://elsewhere" });
    expect(await signer.verify(await elsewhere.sign(claims), now)).toEqual({
      valid: false,
      problem: "audience",
    });
    const impostor = new TokenSigner(keys, { issuer: "http://other", audience: "http://aud" });
    expect(await signer.verify(await impostor.sign(claims), now)).toEqual({
      valid: false,
      problem: "issuer",
    });
    const foreign = new TokenSigner(await generateSigningKeys(), {
      issuer: "http://iss",
      audience: "http://aud",
    });
    expect(await signer.verify(await foreign.sign(claims), now)).toEqual({
      valid: false,
      problem: "signature",
    });
    expect(await signer.verify(signer.signUnsecured(claims), now)).toEqual({
      valid: false,
      problem: "unsigned",
    });
    expect(await signer.verify("garbage", now)).toEqual({ valid: false, problem: "malformed" });
    expect(await signer.verify(token.slice(0, -8), now)).toMatchObject({ valid: false });
    expect(await signer.verify(token, now + 3_601_000)).toEqual({ valid: false, problem: "expired" });
    const hs256 = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).sign(new Uint8Array(32));
    expect(await signer.verify(hs256, now)).toEqual({ valid: false, problem: "algorithm" });
  });

  it("claimsLookRight reads claims without the signature, for the bearer faults only", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256" })
      .setIssuer("http://iss")
      .setAudience("http://aud")
      .setSubject("c")
      .setExpirationTime(Math.floor(now / 1000) + 60)
      .sign(privateKey);
    expect(signer.claimsLookRight(foreign, now)?.sub).toBe("c");
    expect(signer.claimsLookRight(foreign, now + 120_000)).toBeUndefined();
    const wrongIssuer = new UnsecuredJWT({ sub: "c", aud: "http://aud", exp: Math.floor(now / 1000) + 60 })
      .setIssuer("http://other")
      .encode();
    expect(signer.claimsLookRight(wrongIssuer, now)).toBeUndefined();
  });
});
