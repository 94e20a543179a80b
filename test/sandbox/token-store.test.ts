import { describe, expect, it } from "vitest";
import type { ExpiryPolicy, TokenRecord } from "../../sandbox/token-store.ts";
import { TokenStore } from "../../sandbox/token-store.ts";
import { ManualClock } from "./support.ts";

const HOUR = 3_600_000;

function store(policy: ExpiryPolicy = "sliding", maxTokens = 1_000_000) {
  const clock = new ManualClock();
  const tokens = new TokenStore({ clock, expiresIn: 300, policy, maxTokens });
  const issue = (token: string, overrides: Partial<TokenRecord> = {}): void => {
    const now = clock.now();
    tokens.add(token, {
      clientId: "c",
      issuedAt: now,
      lastUse: now,
      hardExpiresAt: now + 24 * HOUR,
      refused: false,
      revoked: false,
      ...overrides,
    });
  };
  return { clock, tokens, issue };
}

describe("TokenStore: sliding expiry (spec Authentication rules 5–7)", () => {
  it("keeps a token valid while it is used more often than expires_in, far past expires_in", () => {
    const { clock, tokens, issue } = store();
    issue("t");
    for (let i = 0; i < 20; i += 1) {
      clock.advanceSeconds(299);
      expect(tokens.use("t").status).toBe("valid");
    }
    // 20 × 299 s is almost 20 lifetimes.
  });

  it("expires a token idle for exactly expires_in, and keeps one idle just under it", () => {
    const { clock, tokens, issue } = store();
    issue("idle");
    issue("nearly");
    clock.advance(300_000 - 1);
    expect(tokens.use("nearly").status).toBe("valid");
    clock.advance(1);
    expect(tokens.use("idle").status).toBe("expired");
    // An expired token is gone for good: asked again it is unknown.
    expect(tokens.use("idle").status).toBe("unknown");
  });

  it("ends every token at its hard cap, used or not", () => {
    const { clock, tokens, issue } = store();
    issue("t", { hardExpiresAt: clock.now() + 500_000 });
    clock.advanceSeconds(250);
    expect(tokens.use("t").status).toBe("valid");
    clock.advanceSeconds(250);
    expect(tokens.use("t").status).toBe("expired");
  });

  it("counts lifetime from issue under expiry-fixed, never expires under expiry-never, halves it under expiry-early", () => {
    const fixed = store("fixed");
    fixed.issue("t");
    fixed.clock.advanceSeconds(200);
    expect(fixed.tokens.use("t").status).toBe("valid");
    fixed.clock.advanceSeconds(100);
    expect(fixed.tokens.use("t").status).toBe("expired");

    const never = store("never");
    never.issue("t");
    never.clock.advanceSeconds(3000);
    expect(never.tokens.use("t").status).toBe("valid");

    const early = store("early");
    early.issue("t");
    early.clock.advanceSeconds(149);
    expect(early.tokens.use("t").status).toBe("valid");
    early.clock.advanceSeconds(150);
    expect(early.tokens.use("t").status).toBe("expired");
  });

  it("reports refused tokens without refreshing them", () => {
    const { tokens, issue } = store();
    issue("r", { refused: true });
    expect(tokens.use("r").status).toBe("refused");
  });
});

describe("TokenStore: bounded memory", () => {
  it("drops expired tokens lazily as the clock moves, without any timer", () => {
    const { clock, tokens, issue } = store();
    for (let i = 0; i < 500; i += 1) issue(`old-${i}`);
    issue("busy");
    expect(tokens.size).toBe(501);
    for (let step = 0; step < 4; step += 1) {
      clock.advanceSeconds(100);
      expect(tokens.use("busy").status).toBe("valid");
    }
    // The 500 idle ones are gone although nobody asked for them; the busy one stays.
    expect(tokens.size).toBe(1);
  });

  it("sweeps a large store within a few clock seconds of activity, a batch at a time", () => {
    const { clock, tokens, issue } = store();
    for (let i = 0; i < 20_000; i += 1) issue(`t-${i}`);
    clock.advanceSeconds(301);
    issue("fresh");
    expect(tokens.size).toBeLessThan(20_001);
    expect(tokens.size).toBeGreaterThan(1);
    for (let second = 0; second < 20 && tokens.size > 1; second += 1) {
      clock.advanceSeconds(1);
      tokens.use("fresh");
    }
    expect(tokens.size).toBe(1);
  });

  it("never holds more than maxTokens, dropping the oldest first", () => {
    const { tokens, issue } = store("never", 100);
    for (let i = 0; i < 250; i += 1) issue(`t-${i}`);
    expect(tokens.size).toBe(100);
    expect(tokens.use("t-0").status).toBe("unknown");
    expect(tokens.use("t-249").status).toBe("valid");
  });
});
