import { describe, expect, it } from "vitest";
import { MAX_TIMER_DELAY_MS, timerDelay } from "../../../transport/deadline/index.ts";

describe("timerDelay", () => {
  it("passes a delay Node's timers hold as it is, to the last millisecond", () => {
    expect(timerDelay(1)).toBe(1);
    expect(timerDelay(0.5)).toBe(0.5);
    expect(timerDelay(2_147_483_647)).toBe(2_147_483_647);
  });

  it("makes a past or unknown delay zero, and a far one the longest a timer holds", () => {
    expect(timerDelay(0)).toBe(0);
    expect(timerDelay(-0)).toBe(0);
    expect(timerDelay(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
    expect(timerDelay(2_147_483_648)).toBe(MAX_TIMER_DELAY_MS);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(2_147_483_647);
  });
});
