import { formatBytes } from "../../core/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";

describe("formatBytes", () => {
  it("says a whole number of MiB in MiB", () => {
    expect(formatBytes(1_048_576)).toBe("1 MiB");
    expect(formatBytes(16 * 1_048_576)).toBe("16 MiB");
  });

  it("says a whole number of KiB that is not whole MiB in KiB", () => {
    expect(formatBytes(65_536)).toBe("64 KiB");
    expect(formatBytes(1_536 * 1_024)).toBe("1536 KiB");
  });

  it("says anything else in bytes, without rounding", () => {
    expect(formatBytes(100)).toBe("100 bytes");
    expect(formatBytes(1_000_000)).toBe("1000000 bytes");
    expect(formatBytes(1_025)).toBe("1025 bytes");
  });
});
