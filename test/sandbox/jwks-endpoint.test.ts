import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, jwtVerify } from "jose";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { createJwksEndpoint } from "../../sandbox/jwks-endpoint.ts";
import { generateSigningKeys, TokenSigner } from "../../sandbox/token-signer.ts";

describe("createJwksEndpoint", () => {
  it("serves the public key set, cacheable for 5 minutes, which verifies the signer's tokens", async () => {
    const signer = new TokenSigner(await generateSigningKeys(), { issuer: "urn:i", audience: "urn:a" });
    const handler = createJwksEndpoint(signer);
    const server = createServer((req, res) => void handler(req, res, ""));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await request(`http://127.0.0.1:${port}/auth/.well-known/jwks.json`);
      const text = await response.body.text();
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json");
      expect(response.headers["cache-control"]).toBe("public, max-age=300");
      const jwks = JSON.parse(text) as { keys: Record<string, unknown>[] };
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).toMatchObject({
        kty: "EC",
        crv: "P-256",
        alg: "ES256",
        use: "sig",
        kid: signer.kid,
      });
      // A public key only: no private scalar d.
      expect(jwks.keys[0]).not.toHaveProperty("d");
      const now = Date.now();
      const token = await signer.sign({ clientId: "shop", issuedAt: now, expiresAt: now + 60_000 });
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks as never), {
        issuer: "urn:i",
        audience: "urn:a",
      });
      expect(payload.sub).toBe("shop");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
