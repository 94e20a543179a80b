import { describe, expect, it } from "vitest";
import { retryOf } from "../../../cli/load/execute-capacity.ts";
import type { CapacityStepResult } from "../../../reporting/load/index.ts";

// executeCapacity itself runs k6 step by step: the load capacity command's tests run it (test/cli/commands/).

/** A step as the search reads it: its rate and what it found. */
const step = (rate: number, outcome: CapacityStepResult["outcome"]) =>
  ({ rate, outcome }) as CapacityStepResult;

describe("retryOf", () => {
  it("runs a step the generator limited once more, at the same rate", () => {
    expect(retryOf([step(100, "held"), step(200, "generator")])).toEqual({
      kind: "step",
      rate: 200,
      phase: "retry",
    });
    expect(retryOf([step(200, "generator")])).toEqual({ kind: "step", rate: 200, phase: "retry" });
  });

  it("lets a second limited attempt at the same rate stand", () => {
    expect(retryOf([step(100, "held"), step(200, "generator"), step(200, "generator")])).toBeUndefined();
  });

  it("retries a limited step after one limited at another rate", () => {
    expect(retryOf([step(400, "generator"), step(300, "generator")])).toEqual({
      kind: "step",
      rate: 300,
      phase: "retry",
    });
  });

  it("retries nothing after a step the target decided, or before any step", () => {
    expect(retryOf([])).toBeUndefined();
    expect(retryOf([step(200, "generator"), step(200, "held")])).toBeUndefined();
    expect(retryOf([step(100, "held"), step(200, "broken")])).toBeUndefined();
    expect(retryOf([step(100, "held"), step(200, "no-verdict")])).toBeUndefined();
  });
});
