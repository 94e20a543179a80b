import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../sandbox/clock.ts";

describe("systemClock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads the wall clock in epoch milliseconds at each call", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2027-01-15T08:00:00.123Z"));
    expect(systemClock.now()).toBe(Date.UTC(2027, 0, 15, 8, 0, 0, 123));
    vi.setSystemTime(new Date("2030-06-01T00:00:00.000Z"));
    expect(systemClock.now()).toBe(Date.UTC(2030, 5, 1));
  });
});
