import { describe, expect, it } from "vitest";
import { rotationOptions, SANDBOX_OVERLAP_RANGE } from "../../../cli/options/rotation-options.ts";
import { sandboxRotateOptions } from "../../../cli/options/sandbox-rotate-options.ts";
import { MAX_OVERLAP_SECONDS } from "../../../sandbox/index.ts";

describe("the overlap an old secret may stay accepted", () => {
  it("is bounded by the sandbox admin endpoint's own bound, in both commands that ask for one", () => {
    expect(SANDBOX_OVERLAP_RANGE).toEqual({ min: 0, max: MAX_OVERLAP_SECONDS });
    expect(rotationOptions["sandbox-overlap"].range).toBe(SANDBOX_OVERLAP_RANGE);
    expect(sandboxRotateOptions.overlap.range).toBe(SANDBOX_OVERLAP_RANGE);
  });
});
