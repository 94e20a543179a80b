import { describe, expect, it } from "vitest";
import { ClientRegistry } from "../../sandbox/client-registry.ts";
import { rotateClientSecret } from "../../sandbox/secret-rotation.ts";
import { TokenStore } from "../../sandbox/token-store.ts";
import { ManualClock } from "./support.ts";

const START = 1_800_000_000_000;

function world() {
  const clock = new ManualClock(START);
  const clients = new ClientRegistry(
    [
      { clientId: "shop", clientSecret: "old-secret" },
      { clientId: "other", clientSecret: "other-secret" },
    ],
    clock,
  );
  const tokens = new TokenStore({ clock, expiresIn: 300, policy: "sliding", maxTokens: 100 });
  const record = (clientId: string) => ({
    clientId,
    issuedAt: clock.now(),
    lastUse: clock.now(),
    hardExpiresAt: clock.now() + 86_400_000,
    refused: false,
    revoked: false,
  });
  tokens.add("shop-token", record("shop"));
  tokens.add("other-token", record("other"));
  return { clock, clients, tokens, deps: { clients, tokens, clock } };
}

describe("rotateClientSecret", () => {
  it("without overlap: a fresh random secret at once, the old one refused, tokens kept", () => {
    const { clock, clients, tokens, deps } = world();
    clock.advanceSeconds(10);
    const outcome = rotateClientSecret(deps, "shop", { overlapSeconds: 0, revokeTokens: false });
    expect(outcome.clientId).toBe("shop");
    expect(outcome.clientSecret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(outcome.oldSecretValidUntil).toBeUndefined();
    expect(outcome.notBeforePolicy).toBe(START / 1000);
    expect(clients.check("shop", "old-secret")).toBe("wrong-secret");
    expect(clients.check("shop", outcome.clientSecret)).toBe("ok");
    expect(tokens.use("shop-token").status).toBe("valid");
  });

  it("with overlap: the old secret is accepted until the overlap ends, to the millisecond", () => {
    const { clock, clients, deps } = world();
    const outcome = rotateClientSecret(deps, "shop", { overlapSeconds: 30, revokeTokens: false });
    expect(outcome.oldSecretValidUntil).toBe(START + 30_000);
    clock.advance(29_999);
    expect(clients.check("shop", "old-secret")).toBe("ok");
    clock.advance(1);
    expect(clients.check("shop", "old-secret")).toBe("wrong-secret");
    expect(clients.check("shop", outcome.clientSecret)).toBe("ok");
  });

  it("with revokeTokens: the client's tokens are refused as revoked and its not-before-policy moves to now", () => {
    const { clock, tokens, deps } = world();
    clock.advanceSeconds(42);
    const outcome = rotateClientSecret(deps, "shop", { overlapSeconds: 0, revokeTokens: true });
    expect(outcome.notBeforePolicy).toBe(START / 1000 + 42);
    expect(tokens.use("shop-token").status).toBe("revoked");
    expect(tokens.use("other-token").status).toBe("valid");
  });

  it("gives a new secret on every rotation", () => {
    const { deps } = world();
    const first = rotateClientSecret(deps, "shop", { overlapSeconds: 0, revokeTokens: false });
    const second = rotateClientSecret(deps, "shop", { overlapSeconds: 0, revokeTokens: false });
    expect(second.clientSecret).not.toBe(first.clientSecret);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses an overlap of %s with a RangeError, rotating nothing",
    (overlapSeconds) => {
      const { clients, deps } = world();
      expect(() => rotateClientSecret(deps, "shop", { overlapSeconds, revokeTokens: true })).toThrow(
        new RangeError(`overlapSeconds must be a number of seconds ≥ 0, got ${overlapSeconds}`),
      );
      expect(clients.check("shop", "old-secret")).toBe("ok");
    },
  );

  it("refuses a client it does not know, revoking nothing", () => {
    const { tokens, deps } = world();
    expect(() => rotateClientSecret(deps, "nobody", { overlapSeconds: 0, revokeTokens: true })).toThrow(
      new RangeError("unknown client nobody"),
    );
    expect(tokens.use("shop-token").status).toBe("valid");
  });
});
