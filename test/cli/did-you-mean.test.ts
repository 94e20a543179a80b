import { describe, expect, it } from "vitest";
import { closestName, didYouMean } from "../../cli/did-you-mean.ts";

describe("closestName", () => {
  it("finds a typo, a prefix and a case slip, and nothing for a different word", () => {
    expect(closestName("lod", ["load", "run"])).toBe("load");
    expect(closestName("sandbx", ["sandbox", "sandbox-rotate"])).toBe("sandbox");
    expect(closestName("verify", ["verify-rotation", "run"])).toBe("verify-rotation");
    expect(closestName("RUN", ["run"])).toBe("run");
    expect(closestName("xyz", ["load", "run"])).toBeUndefined();
    expect(didYouMean("xyz", ["load"])).toBe("");
    expect(didYouMean("rat", ["rate"], "--")).toBe("; did you mean '--rate'?");
  });
});
