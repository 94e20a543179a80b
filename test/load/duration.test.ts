import { describe, expect, it } from "vitest";
import { formatSeconds, parseDurationSeconds } from "../../load/index.ts";

describe("parseDurationSeconds", () => {
  it.each([
    ["45", 45],
    ["2.5", 2.5],
    ["90s", 90],
    ["5m", 300],
    ["1h30m", 5400],
    ["250ms", 0.25],
    ["1m30s", 90],
  ])("reads %s as %d s", (raw, seconds) => {
    expect(parseDurationSeconds(raw)).toBe(seconds);
  });

  it.each(["", "abc", "5x", "m5", "-3s", "5m junk"])("rejects '%s'", (raw) => {
    expect(parseDurationSeconds(raw)).toBeUndefined();
  });

  it("formats seconds for people", () => {
    expect(formatSeconds(0.75)).toBe("750ms");
    expect(formatSeconds(12.5)).toBe("12.5s");
    expect(formatSeconds(1800)).toBe("30m");
    expect(formatSeconds(3900 * 2)).toBe("2h 10m");
  });
});
