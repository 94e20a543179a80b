import { describe, expect, it } from "vitest";
import { checkPlanLength } from "../../../cli/load/plan-length.ts";
import { CannotRunError } from "../../../core/index.ts";

/** Node's longest timer, 2^31 − 1 ms, in whole seconds and the first second past it. */
const LONGEST_SECONDS = 2_147_483;

describe("checkPlanLength", () => {
  it("accepts a watchdog any Node timer holds, up to the longest one", () => {
    expect(() => checkPlanLength("idle-gap", 60, 300)).not.toThrow();
    expect(() => checkPlanLength("idle-gap", LONGEST_SECONDS, 300)).not.toThrow();
    expect(() => checkPlanLength("idle-gap", 2_147_483.647, 300)).not.toThrow();
  });

  it("refuses one past it as a run that cannot start, naming the scenario and the expires_in", () => {
    let thrown: unknown;
    try {
      checkPlanLength("idle-gap", LONGEST_SECONDS + 1, 1_000_000);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CannotRunError);
    expect((thrown as CannotRunError).code).toBe("cannot-run");
    expect((thrown as CannotRunError).message).toBe(
      "with the target's expires_in of 1000000 s, idle-gap would run for up to 596 h 31 min; " +
        "the harness runs k6 for at most 596 h 31 min",
    );
  });
});
