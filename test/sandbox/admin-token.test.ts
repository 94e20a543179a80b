import { describe, expect, it } from "vitest";
import {
  ADMIN_TOKEN_MAX_LENGTH,
  ADMIN_TOKEN_MIN_LENGTH,
  AdminTokenGuard,
  randomAdminToken,
} from "../../sandbox/admin-token.ts";
import { checkAdminToken } from "../../sandbox/index.ts";

describe("checkAdminToken", () => {
  it("takes 16 to 512 characters of RFC 6750's b64token, padding at the end included", () => {
    expect([ADMIN_TOKEN_MIN_LENGTH, ADMIN_TOKEN_MAX_LENGTH]).toEqual([16, 512]);
    for (const token of [
      "a".repeat(16),
      "a".repeat(512),
      "AZaz09-._~+/abcd",
      "abcdefghijklmnop==",
      "0123456789abcdef=",
    ])
      expect(checkAdminToken(token)).toBe(token);
  });

  it.each([
    ["15 characters", "a".repeat(15), /got 15$/],
    ["513 characters", "a".repeat(513), /got 513$/],
    ["empty", "", /got 0$/],
  ])("refuses a token of %s with a RangeError giving its length", (_what, token, message) => {
    expect(() => checkAdminToken(token)).toThrow(RangeError);
    expect(() => checkAdminToken(token)).toThrow(message);
  });

  it.each([
    ["a space", "abcdefgh ijklmnop"],
    ["padding in the middle", "abcdefgh=ijklmnop"],
    ["only padding", "=".repeat(16)],
    ["a line break", "abcdefghijklmnop\n"],
    ["a quote", 'abcdefghijklmnop"'],
    ["a letter beyond ASCII", "abcdefghijklmnoé"],
  ])("refuses a token with %s, without echoing it", (_what, token) => {
    expect(() => checkAdminToken(token)).toThrow(
      new RangeError("adminToken may hold only letters, digits and - . _ ~ + / (then = padding)"),
    );
  });

  it("refuses what is no string with a TypeError", () => {
    expect(() => checkAdminToken(12345 as never)).toThrow(new TypeError("adminToken must be a string"));
  });
});

describe("randomAdminToken", () => {
  it("draws 256 random bits as base64url, a token checkAdminToken takes, different each time", () => {
    const tokens = Array.from({ length: 20 }, () => randomAdminToken());
    for (const token of tokens) {
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
      expect(Buffer.from(token, "base64url").toString("base64url")).toBe(token);
      expect(checkAdminToken(token)).toBe(token);
    }
    expect(new Set(tokens).size).toBe(20);
  });
});

describe("AdminTokenGuard", () => {
  it("matches the exact token only: not a prefix, another case, or an empty one", () => {
    const guard = new AdminTokenGuard("admin-token-0123456789");
    expect(guard.matches("admin-token-0123456789")).toBe(true);
    expect(guard.matches("admin-token-012345678")).toBe(false);
    expect(guard.matches("ADMIN-TOKEN-0123456789")).toBe(false);
    expect(guard.matches("admin-token-0123456789 ")).toBe(false);
    expect(guard.matches("")).toBe(false);
  });
});
