import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wrongSecret } from "../../../contracts/checks/wrong-secret.ts";

/** The longest run of characters `a` and `b` have in common, counted the plain way. */
function longestSharedRun(a: string, b: string): number {
  let longest = 0;
  for (let i = 0; i < a.length; i += 1) {
    for (let j = 0; j < b.length; j += 1) {
      let k = 0;
      while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k]) k += 1;
      longest = Math.max(longest, k);
    }
  }
  return longest;
}

describe("wrongSecret", () => {
  it("is as long as the real secret, never equal to it and never holding it, whatever the secret", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80, unit: "grapheme" }), (real) => {
        const wrong = wrongSecret(real);
        expect(wrong).not.toBe(real);
        expect(wrong.length).toBe(real.length);
        expect(wrong.includes(real)).toBe(false);
        expect(real.includes(wrong)).toBe(false);
      }),
    );
  });

  it("shares with a random secret of its own alphabet no run longer than chance gives", () => {
    for (const real of ["Sx9kP2qL7mZ4vR8tW", "a".repeat(40), "k3-Q_v".repeat(50)]) {
      expect(longestSharedRun(wrongSecret(real), real), real).toBeLessThanOrEqual(4);
    }
  });

  it("is a fresh value each time, so no run's evidence teaches the next run's", () => {
    const real = "Sx9kP2qL7mZ4vR8tW";
    expect(new Set(Array.from({ length: 20 }, () => wrongSecret(real))).size).toBe(20);
  });
});
