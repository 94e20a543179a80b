import { describe, expect, it } from "vitest";
import { isScenarioName, SCENARIO_NAMES, SCENARIOS } from "../../../load/index.ts";

describe("isScenarioName", () => {
  it("knows each scenario by its exact name", () => {
    for (const name of ["sustained", "ramp", "spike", "soak", "idle-gap", "token-storm", "capacity"]) {
      expect(isScenarioName(name), name).toBe(true);
    }
  });

  it("knows nothing else, however close or however inherited", () => {
    for (const name of [
      "",
      "Sustained",
      "sustained ",
      "idle_gap",
      "toString",
      "__proto__",
      "constructor",
      "length",
    ]) {
      expect(isScenarioName(name), name).toBe(false);
    }
  });
});

describe("SCENARIOS", () => {
  it("describes every named scenario, and only those", () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual([...SCENARIO_NAMES].sort());
  });

  it("gives open scenarios a rate and closed ones none", () => {
    for (const name of SCENARIO_NAMES) {
      const spec = SCENARIOS[name];
      expect(spec.usesRate, name).toBe(spec.model === "open");
      expect(spec.defaults.rate !== undefined, name).toBe(spec.usesRate);
      expect(spec.defaults.vus, name).toBeGreaterThan(0);
    }
    // idle-gap's length follows from expires_in.
    expect(SCENARIOS["idle-gap"].defaults.durationSeconds).toBeUndefined();
  });
});
