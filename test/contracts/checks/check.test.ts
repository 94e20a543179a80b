import { describe, expect, it } from "vitest";
import { broken, holds, observed, skipped, statusOf } from "../../../contracts/checks/check.ts";

describe("statusOf", () => {
  it("lets the level, not the check, decide how bad a broken rule is", () => {
    expect(statusOf("MUST", broken("x"))).toBe("FAIL");
    expect(statusOf("SHOULD", broken("x"))).toBe("WARN");
    expect(statusOf("INFO", broken("x"))).toBe("PASS");
  });

  it("passes what holds or was only observed, and skips what could not be reached", () => {
    for (const level of ["MUST", "SHOULD", "INFO"] as const) {
      expect(statusOf(level, holds("x"))).toBe("PASS");
      expect(statusOf(level, observed("x"))).toBe("PASS");
      expect(statusOf(level, skipped("x"))).toBe("SKIP");
    }
  });
});
