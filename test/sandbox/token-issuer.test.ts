import { createLocalJWKSet, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { ClientRegistry } from "../../sandbox/client-registry.ts";
import type { FaultName } from "../../sandbox/index.ts";
import { resolveOptions } from "../../sandbox/options.ts";
import { TokenIssuer } from "../../sandbox/token-issuer.ts";
import { generateSigningKeys, TokenSigner } from "../../sandbox/token-signer.ts";
import { TokenStore } from "../../sandbox/token-store.ts";
import { ManualClock } from "./support.ts";

const ISSUER = "http://127.0.0.1:1/auth";
const AUDIENCE = "http://127.0.0.1:1/api";
/** 2027-01-15T08:00:00.750Z: a fraction of a second, so iat must be rounded down. */
const START = 1_800_000_000_750;

async function issuerWith(faults: readonly FaultName[] = [], expiresIn = 300) {
  const clock = new ManualClock(START);
  const config = resolveOptions({
    clock,
    faults,
    expiresIn,
    maxTokenAgeSeconds: 3_600,
    clients: [{ clientId: "shop", clientSecret: "s3cret-value" }],
  });
  const signer = new TokenSigner(await generateSigningKeys(), { issuer: ISSUER, audience: AUDIENCE });
  const tokens = new TokenStore({ clock, expiresIn, policy: "sliding", maxTokens: 100 });
  const clients = new ClientRegistry(config.clients, clock);
  return { clock, signer, tokens, issuer: new TokenIssuer({ config, signer, tokens, clients }) };
}

/** A JWT's protected header, decoded by hand. */
const header = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;

describe("TokenIssuer", () => {
  it("issues an ES256 JWT the published key set verifies, its age capped at maxTokenAgeSeconds", async () => {
    const { issuer, signer } = await issuerWith();
    const token = await issuer.issue("shop");
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(signer.jwks), {
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(START),
    });
    expect(protectedHeader.alg).toBe("ES256");
    expect(protectedHeader.kid).toBe(signer.kid);
    expect(payload).toMatchObject({ sub: "shop", client_id: "shop", iat: 1_800_000_000, exp: 1_800_003_600 });
  });

  it("registers the token as valid in the store, issued and last used now, hard-expiring at the JWT's exp", async () => {
    const { issuer, tokens } = await issuerWith();
    const lookup = tokens.use(await issuer.issue("shop"));
    expect(lookup).toEqual({
      status: "valid",
      record: {
        clientId: "shop",
        issuedAt: START,
        lastUse: START,
        hardExpiresAt: 1_800_003_600_000,
        refused: false,
        revoked: false,
      },
    });
  });

  it("issues a different token each time, each valid", async () => {
    const { issuer, tokens } = await issuerWith();
    const first = await issuer.issue("shop");
    const second = await issuer.issue("shop");
    expect(first).not.toBe(second);
    expect(tokens.use(first).status).toBe("valid");
    expect(tokens.use(second).status).toBe("valid");
  });

  it("under token-opaque: 256 random bits in base64url, no JWT, still honoured", async () => {
    const { issuer, tokens } = await issuerWith(["token-opaque"]);
    const token = await issuer.issue("shop");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(token.includes(".")).toBe(false);
    expect(tokens.use(token).status).toBe("valid");
  });

  it("under token-unsigned: an alg none JWT with the same claims and an empty signature", async () => {
    const { issuer } = await issuerWith(["token-unsigned"]);
    const token = await issuer.issue("shop");
    const [, payload, signature] = token.split(".");
    expect(header(token)).toEqual({ alg: "none" });
    expect(signature).toBe("");
    expect(JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8"))).toMatchObject({
      sub: "shop",
      iss: ISSUER,
      aud: AUDIENCE,
    });
  });

  it("under token-reissue-broken: a registered client's second token is refused, its first still valid", async () => {
    const { issuer, tokens } = await issuerWith(["token-reissue-broken"]);
    const first = await issuer.issue("shop");
    const second = await issuer.issue("shop");
    expect(tokens.use(second).status).toBe("refused");
    expect(tokens.use(first).status).toBe("valid");
    // A client the sandbox does not know is never counted (the token-unknown-client-accepted fault issues to it).
    await issuer.issue("stranger");
    expect(tokens.use(await issuer.issue("stranger")).status).toBe("valid");
  });

  it("under expiry-no-renewal: once a client's token has expired, its new tokens are refused", async () => {
    const { issuer, tokens, clock } = await issuerWith(["expiry-no-renewal"], 60);
    const first = await issuer.issue("shop");
    expect(tokens.use(await issuer.issue("shop")).status).toBe("valid");
    clock.advanceSeconds(61);
    expect(tokens.use(first).status).toBe("expired");
    expect(tokens.use(await issuer.issue("shop")).status).toBe("refused");
  });

  it("without the faults, a token after an expiry is valid", async () => {
    const { issuer, tokens, clock } = await issuerWith([], 60);
    const first = await issuer.issue("shop");
    clock.advanceSeconds(61);
    expect(tokens.use(first).status).toBe("expired");
    expect(tokens.use(await issuer.issue("shop")).status).toBe("valid");
  });
});
