import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { NamedBaseline } from "../../../cli/compare/baseline-set.ts";
import { baselineFor, baselinePaths, readBaselineSet } from "../../../cli/compare/baseline-set.ts";
import { UsageError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

async function writeRecord(file: string, seed: number, scenario = "sustained"): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(loadRecord(seed, steady(2), { settings: { scenario } })));
}

function named(scenario: string, file: string): NamedBaseline {
  return { name: file, file, record: loadRecord(1, steady(1), { settings: { scenario } }) };
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("baselinePaths", () => {
  it("takes the option, a single one or a list, trimmed and without blanks", () => {
    expect(baselinePaths(" a.json ", {})).toEqual(["a.json"]);
    expect(baselinePaths(["a.json", "  ", "b"], {})).toEqual(["a.json", "b"]);
  });

  it("falls back to EVENT_HARNESS_BASELINE, one path a line, only when no option is given", () => {
    const env = { EVENT_HARNESS_BASELINE: "one.json\r\n\n  two dir \n" };
    expect(baselinePaths(undefined, env)).toEqual(["one.json", "two dir"]);
    expect(baselinePaths([], env)).toEqual(["one.json", "two dir"]);
    expect(baselinePaths("flag.json", env)).toEqual(["flag.json"]);
    expect(baselinePaths(undefined, {})).toEqual([]);
    expect(baselinePaths(undefined, { EVENT_HARNESS_BASELINE: "  " })).toEqual([]);
  });
});

describe("readBaselineSet", () => {
  it("reads a baseline file, and a load report dir through its baseline.json, with absolute files", async ({
    tmpDir,
  }) => {
    const file = path.join(tmpDir, "saved.json");
    await writeRecord(file, 1);
    const dir = path.join(tmpDir, "load-report");
    await writeRecord(path.join(dir, "baseline.json"), 2, "spike");
    const set = await readBaselineSet([file, dir], "load");
    expect(set.map((b) => [b.file, b.record.runId, b.record.settings.scenario])).toEqual([
      [file, "run-1", "sustained"],
      [path.join(dir, "baseline.json"), "run-2", "spike"],
    ]);
  });

  it("reads a run's report dir as the baseline.json of each load part, in name order, ignoring other folders", async ({
    tmpDir,
  }) => {
    await writeRecord(path.join(tmpDir, "load-spike", "baseline.json"), 3, "spike");
    await writeRecord(path.join(tmpDir, "load-idle-gap", "baseline.json"), 4, "idle-gap");
    await writeRecord(path.join(tmpDir, "contract", "baseline.json"), 5);
    await mkdir(path.join(tmpDir, "load-empty"));
    await mkdir(path.join(tmpDir, "load-dir-not-file", "baseline.json"), { recursive: true });
    const set = await readBaselineSet([tmpDir], "run");
    expect(set.map((b) => b.record.settings.scenario)).toEqual(["idle-gap", "spike"]);
    expect(set.map((b) => b.file)).toEqual([
      path.join(tmpDir, "load-idle-gap", "baseline.json"),
      path.join(tmpDir, "load-spike", "baseline.json"),
    ]);
  });

  it("refuses a contract run where a load baseline is wanted, and an empty dir as neither", async ({
    tmpDir,
  }) => {
    const contract = path.join(tmpDir, "contract");
    await mkdir(contract);
    await writeFile(path.join(contract, "results.json"), JSON.stringify({ checks: [] }));
    await expect(readBaselineSet([contract], "load")).rejects.toMatchObject({
      code: "invalid-config",
      command: "load",
      message: `--baseline ${path.join(contract, "results.json")} is a contract run, not a load baseline`,
    });
    const empty = path.join(tmpDir, "empty");
    await mkdir(empty);
    await expect(readBaselineSet([empty], "load")).rejects.toThrow(/holds neither baseline\.json/);
  });

  it("reads nothing for no paths", async () => {
    expect(await readBaselineSet([], "load")).toEqual([]);
  });
});

describe("baselineFor", () => {
  const spike = named("spike", "/b/spike.json");
  const sustained = named("sustained", "/b/sustained.json");

  it("gives none for no baseline, and the only one for any scenario unless matched by scenario", () => {
    expect(baselineFor([], "spike", "load")).toBeUndefined();
    expect(baselineFor([], "spike", "run", true)).toBeUndefined();
    expect(baselineFor([spike], "sustained", "load")).toBe(spike);
    expect(baselineFor([spike], "spike", "run", true)).toBe(spike);
  });

  it("picks the one recorded for the scenario among several", () => {
    expect(baselineFor([spike, sustained], "sustained", "run")).toBe(sustained);
    expect(baselineFor([spike, sustained], "spike", "run")).toBe(spike);
  });

  it("refuses a scenario none of them was recorded for, saying how to record one", () => {
    const error = thrownBy(() => baselineFor([spike, sustained], "idle-gap", "run"));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      code: "invalid-config",
      command: "run",
      message:
        "no baseline for scenario idle-gap among /b/spike.json, /b/sustained.json: record one with load idle-gap --save-baseline FILE",
    });
    expect(thrownBy(() => baselineFor([spike], "sustained", "run", true))).toMatchObject({
      message: expect.stringMatching(/^no baseline for scenario sustained among \/b\/spike\.json:/),
    });
  });

  it("refuses two baselines for one scenario, naming both", () => {
    const again = named("spike", "/c/spike.json");
    expect(thrownBy(() => baselineFor([spike, sustained, again], "spike", "run"))).toMatchObject({
      code: "invalid-config",
      message: "more than one baseline for scenario spike: /b/spike.json, /c/spike.json",
    });
  });
});
