import { describe, expect, it } from "vitest";
import { capacityObjectives, objectiveKeys } from "../../../cli/load/capacity-objectives.ts";
import { planScenario } from "../../../load/index.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

describe("capacityObjectives", () => {
  it("holds each step to the scenario's defaults, the dropped-iterations guard in words", () => {
    const config = runConfig("capacity", { rate: 100 });
    const objectives = capacityObjectives(config, planScenario(config));
    expect(objectives.dropped_iterations).toEqual(["count<=1% of planned"]);
    expect(objectives["http_req_duration{endpoint:events}"]).toEqual(["p(95)<500"]);
    expect(objectives.events_failed).toEqual(["rate<0.01"]);
  });

  it("lets --threshold replace a default, the dropped-iterations guard too", () => {
    const config = runConfig("capacity", {
      rate: 100,
      thresholdOverrides: {
        "http_req_duration{endpoint:events}": ["p(99)<250"],
        dropped_iterations: ["count<=3"],
      },
    });
    const objectives = capacityObjectives(config, planScenario(config));
    expect(objectives["http_req_duration{endpoint:events}"]).toEqual(["p(99)<250"]);
    expect(objectives.dropped_iterations).toEqual(["count<=3"]);
  });
});

describe("objectiveKeys", () => {
  it("lists each expression as `metric expression`, sorted", () => {
    expect(
      objectiveKeys({
        events_failed: ["rate<0.01"],
        "http_req_duration{endpoint:events}": ["p(99)<900", "p(95)<500"],
        dropped_iterations: ["count<=1% of planned"],
      }),
    ).toEqual([
      "dropped_iterations count<=1% of planned",
      "events_failed rate<0.01",
      "http_req_duration{endpoint:events} p(95)<500",
      "http_req_duration{endpoint:events} p(99)<900",
    ]);
  });

  it("lists nothing for no objectives, or a metric with none", () => {
    expect(objectiveKeys({})).toEqual([]);
    expect(objectiveKeys({ events_failed: [] })).toEqual([]);
  });
});
