import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { Command } from "../../../cli/command.ts";
import { parseCommandArgs } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { verifyRotationCommand } from "../../../cli/commands/verify-rotation.ts";
import { planParts, reproduceCommand } from "../../../cli/run/part-plan.ts";
import type { RunSettings } from "../../../cli/run/run-settings.ts";
import { readSettings } from "../../../cli/run/run-settings.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

const COMMANDS: Record<string, Command> = {
  contract: contractCommand as Command,
  load: loadCommand as Command,
  "verify-rotation": verifyRotationCommand as Command,
};

const settings: RunSettings = {
  started: new Date(0),
  runId: "r",
  runDir: path.resolve("reports", "run"),
  external: undefined,
  parts: ["contract", "load", "rotation"],
  profile: "full",
  scenarios: [{ name: "sustained", duration: "3s" }, { name: "idle-gap" }],
  rate: undefined,
  expectOld: undefined,
  expectOldTokens: undefined,
  faults: [],
  sandboxLatency: undefined,
  baselines: {},
  failOn: undefined,
  accepted: undefined,
};

/** The options the part's command parses from the line shown to repeat it: what it would really run with. */
function parsedFromShown(command: string): Record<string, unknown> {
  const [name = "", ...argv] = command
    .replace(/^npx --no-install event-harness /, "")
    .split(" ")
    .map((word) => word.replace(/^'(.*)'$/, "$1"));
  return parseCommandArgs(COMMANDS[name] as Command, argv).options;
}

describe("the line that repeats a part", () => {
  it("carries the ledger, the config file and its environment: run by hand, the part is judged as in the run", () => {
    const ledger = path.resolve("gate", "accepted.json");
    const config = { file: path.resolve("harness.json"), environment: "staging" };
    for (const plan of planParts({ ...settings, accepted: ledger })) {
      const shown = reproduceCommand(plan, undefined, config);
      const options = parsedFromShown(shown);
      expect(options.accepted, plan.id).toBe(path.join("gate", "accepted.json"));
      expect(options.config, plan.id).toBe("harness.json");
      expect(options.environment, plan.id).toBe("staging");
      expect(plan.options, plan.id).toMatchObject({ accepted: options.accepted });
    }
  });

  it("carries each load scenario's own baseline and --fail-on", () => {
    const plans = planParts({
      ...settings,
      baselines: {
        sustained: path.resolve("baselines", "sustained.json"),
        "idle-gap": path.resolve("baselines", "idle-gap.json"),
      },
      failOn: "inconclusive",
    });
    const shown = Object.fromEntries(
      plans
        .filter((p) => p.kind === "load")
        .map((p) => [p.id, parsedFromShown(reproduceCommand(p, undefined))]),
    );
    expect(shown["load-sustained"]).toMatchObject({
      baseline: path.join("baselines", "sustained.json"),
      "fail-on": "inconclusive",
    });
    expect(shown["load-idle-gap"]).toMatchObject({ baseline: path.join("baselines", "idle-gap.json") });
  });
});

/** `dir` made a run's report dir holding the baseline.json of each scenario given. */
async function runDir(dir: string, ...scenarios: string[]): Promise<string> {
  for (const scenario of scenarios) {
    await mkdir(path.join(dir, `load-${scenario}`));
    const record = loadRecord(1, steady(20), { settings: { scenario } });
    await writeFile(path.join(dir, `load-${scenario}`, "baseline.json"), JSON.stringify(record));
  }
  return dir;
}

const io = { signal: new AbortController().signal, stderr: new PassThrough() };
const twoScenarios = { parts: "load", scenario: ["sustained=3s", "idle-gap"] };

describe("run --baseline", () => {
  it("takes a baseline for each of several scenarios, from an earlier run's report dir", async ({
    tmpDir,
  }) => {
    const dir = await runDir(tmpDir, "sustained", "idle-gap");
    const read = await readSettings({ ...twoScenarios, baseline: [dir] }, {}, io);
    expect(read.baselines).toEqual({
      sustained: path.join(dir, "load-sustained", "baseline.json"),
      "idle-gap": path.join(dir, "load-idle-gap", "baseline.json"),
    });
  });

  it("takes them from EVENT_HARNESS_BASELINE too, and refuses a scenario without one before anything runs", async ({
    tmpDir,
  }) => {
    const dir = await runDir(tmpDir, "sustained");
    const fromEnv = await readSettings(
      { parts: "load", scenario: ["sustained=3s"] },
      { EVENT_HARNESS_BASELINE: dir },
      io,
    );
    expect(fromEnv.baselines.sustained).toBe(path.join(dir, "load-sustained", "baseline.json"));
    await expect(readSettings({ ...twoScenarios, baseline: [dir] }, {}, io)).rejects.toThrow(
      /no baseline for scenario idle-gap among .*load-sustained\/baseline\.json/,
    );
    // A baseline kept in the environment of a CI job does not stop a run without load from running.
    const contractOnly = await readSettings({ parts: "contract" }, { EVENT_HARNESS_BASELINE: dir }, io);
    expect(contractOnly.baselines).toEqual({});
    await expect(readSettings({ parts: "contract", baseline: [dir] }, {}, io)).rejects.toThrow(
      /--baseline needs the load part/,
    );
  });
});
