import { describe, expect, it } from "vitest";
import { describeRun } from "../../../cli/load/describe-run.ts";
import { planIdleGaps, planScenario } from "../../../load/index.ts";
import { runConfig } from "../../support/run-config-fixture.ts";

describe("describeRun", () => {
  it("counts one VU and one cycle in the singular", () => {
    const config = runConfig("idle-gap", { vus: 1, expiresInSeconds: 4, marginSeconds: 0.5 });
    const idleGap = planIdleGaps(4, 0.5, 1);
    expect(idleGap.cycles).toBe(1);
    const line = describeRun(config, { ...planScenario(config), idleGap });
    expect(line).toMatch(/^idle-gap: 1 VU × 1 cycle of gaps /);
    const sustained = runConfig("sustained", { vus: 1 });
    expect(describeRun(sustained, planScenario(sustained))).toMatch(/^sustained: \S+, 1 VU, /);
  });
});
