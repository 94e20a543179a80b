import { describe, expect, it } from "vitest";
import { closestName, didYouMean, editDistance } from "../../cli/closest-name.ts";

describe("closestName", () => {
  it("counts insertions, deletions and substitutions, ignoring case", () => {
    expect(editDistance("clientSecert", "clientSecret")).toBe(2);
    expect(editDistance("baseurl", "baseUrl")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("names the closest known name for a likely typo", () => {
    expect(closestName("clientSecert", ["clientId", "clientSecret", "scope"])).toBe("clientSecret");
    expect(closestName("stagin", ["staging", "production"])).toBe("staging");
    expect(didYouMean("tokenUrll", ["tokenUrl", "authUrl"])).toBe(" (did you mean 'tokenUrl'?)");
  });

  it("suggests nothing when no known name is close", () => {
    expect(closestName("colour", ["clientId", "scope"])).toBeUndefined();
    expect(didYouMean("x", [])).toBe("");
  });
});
