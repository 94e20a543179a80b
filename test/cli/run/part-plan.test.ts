import { describe, expect, it } from "vitest";
import { planParts } from "../../../cli/run/part-plan.ts";
import type { RunSettings } from "../../../cli/run/run-settings.ts";

const settings: RunSettings = {
  started: new Date(0),
  runId: "r",
  runDir: "/tmp/run",
  external: undefined,
  parts: ["contract", "load"],
  profile: "fast",
  scenarios: [{ name: "sustained", duration: "5s" }],
  rate: undefined,
  expectOld: undefined,
  expectOldTokens: undefined,
  faults: [],
  sandboxLatency: "30",
  baseline: undefined,
};

describe("planParts", () => {
  it("hands --sandbox-latency to the load parts only: the contract suite has no latency to judge", () => {
    const [contract, load] = planParts(settings);
    expect(contract?.argv).not.toContain("--sandbox-latency");
    expect(load?.argv.join(" ")).toContain("--sandbox-latency 30");
    expect(planParts({ ...settings, sandboxLatency: undefined })[1]?.argv).not.toContain("--sandbox-latency");
  });
});
