import { describe, expect, it } from "vitest";
import { parseDurationSeconds } from "../../../load/index.ts";

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
});
