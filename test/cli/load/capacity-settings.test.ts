import { describe, expect, it } from "vitest";
import { readCapacitySettings } from "../../../cli/load/capacity-settings.ts";
import { UsageError } from "../../../core/index.ts";

function refusal(scenario: string, options: Parameters<typeof readCapacitySettings>[1]): UsageError {
  try {
    readCapacitySettings(scenario, options);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error("expected a refusal");
}

describe("readCapacitySettings", () => {
  it("gives the search's defaults when nothing is given", () => {
    expect(readCapacitySettings("capacity", {})).toEqual({
      maxRate: 20_000,
      resolution: { kind: "relative", value: 0.05 },
      factor: 2,
      maxSteps: 15,
      stepSeconds: 10,
      stepWarmUpSeconds: 5,
    });
  });

  it("reads every option", () => {
    expect(
      readCapacitySettings("capacity", {
        "max-rate": "800",
        resolution: "2.5%",
        "step-factor": "1.5",
        "max-steps": "7",
        "step-duration": "1m",
        "step-warm-up": "0s",
      }),
    ).toEqual({
      maxRate: 800,
      resolution: { kind: "relative", value: 0.025 },
      factor: 1.5,
      maxSteps: 7,
      stepSeconds: 60,
      stepWarmUpSeconds: 0,
    });
  });

  it("reads a resolution in events a second", () => {
    expect(readCapacitySettings("capacity", { resolution: " 25 " })?.resolution).toEqual({
      kind: "absolute",
      value: 25,
    });
  });

  it.for(["0%", "50.5%", "0", "-5", "5 %%", "five", "", "0.5"])(
    "refuses the resolution '%s' with the forms it takes",
    (raw) => {
      const error = refusal("capacity", { resolution: raw });
      expect(error.code).toBe("invalid-value");
      expect(error.message).toContain("--resolution takes a share of the rate held");
      expect(error.message).toContain(`got '${raw}'`);
    },
  );

  it("says the range of shares it takes: any share above 0 % (0.01 % too), up to 50 %", () => {
    expect(readCapacitySettings("capacity", { resolution: "0.01%" })?.resolution).toEqual({
      kind: "relative",
      value: 0.0001,
    });
    expect(refusal("capacity", { resolution: "0%" }).message).toBe(
      "--resolution takes a share of the rate held above 0% and up to 50% (e.g. 5%) or events a second from 1 (e.g. 25), got '0%'",
    );
  });

  it("takes 50% and 1 event a second, the ends of the resolution's range", () => {
    expect(readCapacitySettings("capacity", { resolution: "50%" })?.resolution).toEqual({
      kind: "relative",
      value: 0.5,
    });
    expect(readCapacitySettings("capacity", { resolution: "1" })?.resolution).toEqual({
      kind: "absolute",
      value: 1,
    });
  });

  it("refuses step durations outside their ranges, naming the flag", () => {
    expect(refusal("capacity", { "step-duration": "0s" }).message).toBe(
      "--step-duration takes a duration from 1s to 3600s (e.g. 10s), got '0s'",
    );
    expect(refusal("capacity", { "step-duration": "61m" }).code).toBe("invalid-value");
    expect(refusal("capacity", { "step-warm-up": "11m" }).message).toBe(
      "--step-warm-up takes a duration from 0s to 600s (e.g. 10s), got '11m'",
    );
    expect(refusal("capacity", { "step-warm-up": "soon" }).code).toBe("invalid-value");
  });

  it("refuses numbers outside their ranges", () => {
    expect(refusal("capacity", { "step-factor": "1" }).message).toContain("--step-factor");
    expect(refusal("capacity", { "max-steps": "2.5" }).message).toContain("--max-steps");
    expect(refusal("capacity", { "max-steps": "101" }).message).toContain("--max-steps");
    expect(refusal("capacity", { "max-rate": "0" }).message).toContain("--max-rate");
  });

  it("refuses any capacity option for another scenario, and gives nothing without one", () => {
    expect(readCapacitySettings("sustained", {})).toBeUndefined();
    const error = refusal("sustained", { "step-warm-up": "5s" });
    expect(error.code).toBe("invalid-config");
    expect(error.message).toBe("--step-warm-up applies only to load capacity");
  });
});
