import path from "node:path";
import { describe, expect, it } from "vitest";
import { planParts } from "../../../cli/run/part-plan.ts";
import type { RunSettings } from "../../../cli/run/run-settings.ts";

const settings: RunSettings = {
  started: new Date(0),
  runId: "r",
  runDir: path.resolve("run"),
  external: undefined,
  parts: ["contract", "load", "rotation"],
  profile: "full",
  scenarios: [{ name: "sustained", duration: "3s" }],
  loadPart: { rate: undefined },
  expectOld: undefined,
  expectOldTokens: undefined,
  faults: [],
  sandboxLatency: undefined,
  baselines: {},
  failOn: undefined,
  accepted: undefined,
};

describe("run --quiet", () => {
  it("quiets the parts that show progress, contract and load, and only when asked", () => {
    const quiet = planParts({ ...settings, quiet: true });
    const byKind = (kind: string, plans: ReturnType<typeof planParts>) =>
      plans.find((plan) => plan.kind === kind)?.options as { quiet?: boolean } | undefined;
    expect(byKind("contract", quiet)?.quiet).toBe(true);
    expect(byKind("load", quiet)?.quiet).toBe(true);
    expect(byKind("rotation", quiet)?.quiet).toBeUndefined();
    const loud = planParts(settings);
    expect(byKind("contract", loud)?.quiet).toBeUndefined();
    expect(byKind("load", loud)?.quiet).toBeUndefined();
  });
});
