import { describe, expect, it } from "vitest";
import type { HeldToken } from "../../../load/index.ts";
import {
  CLIENT_MODELS,
  classifyRejection,
  defaultMarginSeconds,
  extendedPastIssue,
  idleMs,
  outlivedIdle,
  survivedIdle,
  tokenRequestReason,
} from "../../../load/index.ts";

const ISSUED = 1_000_000;
/** A 10 s token issued at ISSUED, last accepted 4 s later. */
const token: HeldToken = { issuedAtMs: ISSUED, expiresInSeconds: 10, lastSuccessAtMs: ISSUED + 4_000 };
const MARGIN = 1_000;

describe("tokenRequestReason", () => {
  it("asks every model for a first token; token-per-iteration calls it per-iteration", () => {
    for (const model of CLIENT_MODELS) {
      const expected = model === "token-per-iteration" ? "per-iteration" : "initial";
      expect(tokenRequestReason(model, undefined, ISSUED, MARGIN, true)).toBe(expected);
    }
  });

  it("sliding refreshes once idle time reaches expires_in − margin, counted from the last use", () => {
    const lastUse = ISSUED + 4_000;
    expect(tokenRequestReason("sliding", token, lastUse + 8_999, MARGIN, true)).toBeUndefined();
    expect(tokenRequestReason("sliding", token, lastUse + 9_000, MARGIN, true)).toBe("idle");
    // Long after issue but recently used: sliding keeps it.
    const busy = { ...token, lastSuccessAtMs: ISSUED + 60_000 };
    expect(tokenRequestReason("sliding", busy, ISSUED + 61_000, MARGIN, false)).toBeUndefined();
  });

  it("cache-until-expiry refreshes at issued + expires_in − margin however recently the token was used", () => {
    const busy = { ...token, lastSuccessAtMs: ISSUED + 8_900 };
    expect(tokenRequestReason("cache-until-expiry", busy, ISSUED + 8_999, MARGIN, false)).toBeUndefined();
    expect(tokenRequestReason("cache-until-expiry", busy, ISSUED + 9_000, MARGIN, false)).toBe("lifetime");
  });

  it("refresh-on-401 never refreshes ahead of a rejection", () => {
    expect(tokenRequestReason("refresh-on-401", token, ISSUED + 3_600_000, MARGIN, true)).toBeUndefined();
  });

  it("token-per-iteration fetches at the start of each iteration only", () => {
    expect(tokenRequestReason("token-per-iteration", token, ISSUED + 5_000, MARGIN, true)).toBe(
      "per-iteration",
    );
    expect(tokenRequestReason("token-per-iteration", token, ISSUED + 5_000, MARGIN, false)).toBeUndefined();
  });
});

describe("classifyRejection (the 401 decision)", () => {
  it("counts a 401 for a token used less than expires_in − skew ago as an unexpected expiry", () => {
    const lastUse = ISSUED + 4_000;
    expect(classifyRejection(token, lastUse + 100, MARGIN)).toBe("unexpected-expiry");
    expect(classifyRejection(token, lastUse + 8_999, MARGIN)).toBe("unexpected-expiry");
  });

  it("accepts a 401 as an idle expiry from expires_in − skew on", () => {
    const lastUse = ISSUED + 4_000;
    expect(classifyRejection(token, lastUse + 9_000, MARGIN)).toBe("idle-expiry");
    expect(classifyRejection(token, lastUse + 60_000, MARGIN)).toBe("idle-expiry");
  });

  it("measures a never-used token from its issue", () => {
    const fresh: HeldToken = { issuedAtMs: ISSUED, expiresInSeconds: 10, lastSuccessAtMs: undefined };
    expect(idleMs(fresh, ISSUED + 2_000)).toBe(2_000);
    expect(classifyRejection(fresh, ISSUED + 50, MARGIN)).toBe("unexpected-expiry");
  });

  it("under fixed-lifetime expiry, a busy token's rejection is a violation", () => {
    // Used a moment ago, issued 10 s ago: a fixed lifetime would reject it, sliding expiry must not.
    const busy = { ...token, lastSuccessAtMs: ISSUED + 9_950 };
    expect(classifyRejection(busy, ISSUED + 10_000, MARGIN)).toBe("unexpected-expiry");
  });
});

describe("outlivedIdle", () => {
  it("flags a token accepted after idling expires_in + skew or longer", () => {
    const lastUse = ISSUED + 4_000;
    expect(outlivedIdle(token, lastUse + 10_999, MARGIN)).toBe(false);
    expect(outlivedIdle(token, lastUse + 11_000, MARGIN)).toBe(true);
  });
});

describe("survivedIdle", () => {
  it("sees a token accepted after idling over half of expires_in + skew, short of the outlived bound", () => {
    const lastUse = ISSUED + 4_000;
    expect(survivedIdle(token, lastUse + 5_999, MARGIN)).toBe(false);
    expect(survivedIdle(token, lastUse + 6_000, MARGIN)).toBe(true);
    expect(survivedIdle(token, lastUse + 10_999, MARGIN)).toBe(true);
    expect(survivedIdle(token, lastUse + 11_000, MARGIN)).toBe(false);
  });
});

describe("extendedPastIssue", () => {
  it("sees a token accepted expires_in + skew or longer after its issue, however recently it was used", () => {
    const busy = { ...token, lastSuccessAtMs: ISSUED + 10_900 };
    expect(extendedPastIssue(busy, ISSUED + 10_999, MARGIN)).toBe(false);
    expect(extendedPastIssue(busy, ISSUED + 11_000, MARGIN)).toBe(true);
  });
});

describe("defaultMarginSeconds", () => {
  it("is a tenth of expires_in, at most 30 s", () => {
    expect(defaultMarginSeconds(2)).toBe(0.2);
    expect(defaultMarginSeconds(300)).toBe(30);
    expect(defaultMarginSeconds(3600)).toBe(30);
  });
});
