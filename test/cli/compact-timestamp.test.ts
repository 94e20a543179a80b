import { describe, expect, it } from "vitest";
import { compactTimestamp } from "../../cli/compact-timestamp.ts";

describe("compactTimestamp", () => {
  it("writes the UTC time without separators or milliseconds", () => {
    expect(compactTimestamp(new Date(Date.UTC(2026, 10, 22, 3, 4, 5, 678)))).toBe("20261122T030405Z");
    expect(compactTimestamp(new Date(0))).toBe("19700101T000000Z");
  });

  it("names the instant, not the local time, and sorts as time does", () => {
    const earlier = compactTimestamp(new Date("2026-12-31T23:59:59.999+01:00"));
    const later = compactTimestamp(new Date("2027-01-01T00:00:00.000Z"));
    expect(earlier).toBe("20261231T225959Z");
    expect([later, earlier].sort()).toEqual([earlier, later]);
  });
});
