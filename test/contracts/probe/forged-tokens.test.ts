import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  algNoneToken,
  foreignKeyToken,
  garbageToken,
  parseJws,
  tamperedToken,
  truncatedToken,
} from "../../../contracts/probe/forged-tokens.ts";

const keys = await generateKeyPair("ES256");
const real = await new SignJWT({ sub: "client-1", scope: "profile email" })
  .setProtectedHeader({ alg: "ES256", kid: "key-1" })
  .setIssuedAt()
  .sign(keys.privateKey);
const parts = parseJws(real);
if (!parts) throw new Error("test token did not parse");

describe("forged tokens", () => {
  it("parses a JWS and refuses what is not one", () => {
    expect(parts.header).toEqual({ alg: "ES256", kid: "key-1" });
    expect(parseJws("opaque-token")).toBeUndefined();
    expect(parseJws("a.b.c")).toBeUndefined();
  });

  it("each forgery fails verification with the real key", async () => {
    for (const forged of [
      tamperedToken(parts),
      algNoneToken(parts),
      await foreignKeyToken(parts),
      truncatedToken(real),
    ]) {
      expect(forged).not.toBe(real);
      await expect(jwtVerify(forged, keys.publicKey)).rejects.toThrow();
    }
  });

  it("keeps the real signature when tampering and drops it for alg none", () => {
    expect(tamperedToken(parts).split(".")[2]).toBe(parts.segments[2]);
    expect(decodeProtectedHeader(algNoneToken(parts))).toEqual({ alg: "none", typ: "JWT" });
    expect(algNoneToken(parts).endsWith(".")).toBe(true);
  });

  it("signs the foreign-key token under the real kid, with a key that is not the real one", async () => {
    const forged = await foreignKeyToken(parts);
    expect(decodeProtectedHeader(forged)).toEqual({ alg: "ES256", kid: "key-1" });
    expect(await exportJWK(keys.publicKey)).toBeDefined();
  });

  it("makes garbage that is no JWS", () => {
    expect(parseJws(garbageToken())).toBeUndefined();
    expect(garbageToken()).not.toBe(garbageToken());
  });
});
