import { describe, expect, it } from "vitest";
import { formatDuration } from "../../reporting/index.ts";

describe("formatDuration", () => {
  it("gives hundredths under a second, tenths under a minute, and minutes with seconds beyond", () => {
    expect(formatDuration(40)).toBe("0.04 s");
    expect(formatDuration(8_000)).toBe("8.0 s");
    expect(formatDuration(59_999)).toBe("60.0 s");
    expect(formatDuration(125_400)).toBe("2 min 5 s");
  });
});
