import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BaselineStepInput } from "../../../cli/load/baseline-step.ts";
import { BaselineStep } from "../../../cli/load/baseline-step.ts";
import type { RunConfig } from "../../../load/index.ts";
import { planScenario } from "../../../load/index.ts";
import { DEFAULT_COMPARE_OPTIONS } from "../../../reporting/compare/index.ts";
import type { CapacityFigure, CapacityStepResult, LoadResult } from "../../../reporting/load/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runConfig } from "../../support/run-config-fixture.ts";
import { usageRefusal } from "../../support/usage-refusal.ts";

/**
 * A 20 s sustained run at 10/s after its 2 s token warm-up: 22 s expected, so units of 500 ms and a tenth of it,
 * 2.2 s, left out as warm-up (5 units).
 */
const SUSTAINED = runConfig("sustained", { rate: 10, durationSeconds: 20, vus: 4 });

function input(reportDir: string, overrides: Partial<BaselineStepInput> = {}): BaselineStepInput {
  const config: RunConfig = overrides.config ?? SUSTAINED;
  return {
    config,
    plan: planScenario(config),
    reportDir,
    versions: { harness: "9.9.9", k6: "v2.2.0" },
    runId: "run-b",
    startedAt: new Date("2026-11-28T10:00:00.000Z"),
    target: { embedded: true, origin: "http://127.0.0.1:1", sandbox: { latencyMs: 0, faults: [] } },
    baselines: [],
    saveBaseline: undefined,
    compareOptions: DEFAULT_COMPARE_OPTIONS,
    failOn: "regressed",
    allowLatencyChange: false,
    ledger: undefined,
    ...overrides,
  };
}

/** The harness's own samples output: a token request in the first unit, events from the third. */
async function samplesFile(dir: string): Promise<string> {
  const file = path.join(dir, "samples.csv");
  const lines = [
    "# harness-samples 1: ms,kind,value",
    "100,token,4",
    "1100,events,20",
    "1100,failed,0",
    "1200,events,30",
    "1200,failed,0",
    "1700,events,25",
    "1700,failed,1",
  ];
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

/** Samples over the whole run: an event every 250 ms from 1 s to 22 s, about 25 ms each, none failed. */
async function runSamplesFile(dir: string, slowdown = 1): Promise<string> {
  const file = path.join(dir, "samples.csv");
  const lines = ["# harness-samples 1: ms,kind,value", "100,token,4"];
  for (let ms = 1000; ms < 22_000; ms += 250)
    lines.push(`${ms},events,${(20 + (ms % 1000) / 100) * slowdown}`, `${ms},failed,0`);
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

async function json(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

/** A second run's step, in `dir`/second, comparing with the baseline a first run recorded in `dir`/first. */
async function againstFirstRun(dir: string): Promise<{ second: string; step: BaselineStep }> {
  const first = path.join(dir, "first");
  const second = path.join(dir, "second");
  await Promise.all([mkdir(first), mkdir(second)]);
  const before = await BaselineStep.prepare(input(first));
  await before.afterRun([await runSamplesFile(first)], undefined);
  const step = await BaselineStep.prepare(input(second, { baselines: [path.join(first, "baseline.json")] }));
  return { second, step };
}

const passed = { outcome: "passed" } as LoadResult;
const failed = { outcome: "failed" } as LoadResult;

describe("BaselineStep after a load run", () => {
  it("keeps baseline.json from the samples, drops its own samples file, and compares nothing without --baseline", async ({
    tmpDir,
  }) => {
    const samples = await samplesFile(tmpDir);
    const step = await BaselineStep.prepare(input(tmpDir));
    expect(await step.afterRun([samples], samples)).toBeUndefined();
    await expect(access(samples)).rejects.toThrow();
    const record = await json(path.join(tmpDir, "baseline.json"));
    expect(record).toMatchObject({
      format: expect.any(String),
      kind: "load",
      settings: {
        scenario: "sustained",
        rate: 10,
        vus: 4,
        durationSeconds: 20,
        clientModel: "sliding",
        expiresInSeconds: 300,
      },
      versions: { harness: "9.9.9", k6: "v2.2.0" },
      runId: "run-b",
      startedAt: "2026-11-28T10:00:00.000Z",
      instances: 1,
      unitMs: 500,
      // The first event's unit (the third, index 2) and five units of warm-up after it.
      warmUpUnits: 7,
    });
    const units = record.units as { accepted: number; failed: number }[];
    expect(units.map((unit) => [unit.accepted, unit.failed])).toEqual([
      [0, 0],
      [0, 0],
      [2, 0],
      [0, 1],
    ]);
  });

  it("saves a passed run where --save-baseline says, making its folder; a run that did not pass is no baseline", async ({
    tmpDir,
  }) => {
    const samples = await samplesFile(tmpDir);
    const target = path.join(tmpDir, "baselines", "sustained.json");
    const said: string[] = [];
    const step = await BaselineStep.prepare(input(tmpDir, { saveBaseline: target }));
    await step.save(passed, (text) => said.push(text));
    expect(said).toEqual([
      expect.stringMatching(
        /^event-harness: baseline not saved to .*: only a run that passed is a baseline\n$/,
      ),
    ]);
    await step.afterRun([samples], undefined);
    await step.save(failed, (text) => said.push(text));
    await expect(access(target)).rejects.toThrow();
    await step.save(passed, (text) => said.push(text));
    expect(said.at(-1)).toMatch(/^event-harness: baseline saved to .*sustained\.json\n$/);
    expect(await readFile(target, "utf8")).toBe(await readFile(path.join(tmpDir, "baseline.json"), "utf8"));
  });

  it("compares with --baseline: the same samples are no regression, and the comparison file names the baseline", async ({
    tmpDir,
  }) => {
    const { second, step } = await againstFirstRun(tmpDir);
    const compared = await step.afterRun([await runSamplesFile(second)], undefined);
    expect(compared).toBeDefined();
    expect(compared?.addition.baseline?.regressed).toEqual([]);
    expect(compared?.addition.baseline?.fails).toBe(false);
    expect(compared?.addition.junitSuites).toHaveLength(1);
    expect(compared?.text).toContain("baseline");
    const comparison = await json(path.join(second, "baseline-comparison.json"));
    expect(comparison.baseline).toEqual(expect.stringContaining("baseline.json"));
    expect(comparison.status).toEqual(expect.any(String));
    expect(Array.isArray(comparison.figures)).toBe(true);
  });

  it("names what regressed when the candidate is five times slower, and fails the run", async ({
    tmpDir,
  }) => {
    const { second, step } = await againstFirstRun(tmpDir);
    const compared = await step.afterRun([await runSamplesFile(second, 5)], undefined);
    expect(compared?.addition.baseline?.regressed.length).toBeGreaterThan(0);
    expect(compared?.addition.baseline?.fails).toBe(true);
    const comparison = await json(path.join(second, "baseline-comparison.json"));
    expect(comparison.status).toBe("REGRESSED");
  });

  it("refuses, before any load, a baseline taken with other settings, naming them", async ({ tmpDir }) => {
    const before = await BaselineStep.prepare(input(tmpDir));
    await before.afterRun([await runSamplesFile(tmpDir)], undefined);
    const other = runConfig("sustained", { rate: 20, durationSeconds: 20, vus: 4 });
    const error = await usageRefusal(
      BaselineStep.prepare(input(tmpDir, { config: other, baselines: [path.join(tmpDir, "baseline.json")] })),
    );
    expect(error.code).toBe("invalid-config");
    expect(error.message).toMatch(/^cannot compare runs with different load settings \(.*rate.*\)/);
  });

  it("refuses a baseline taken on another target", async ({ tmpDir }) => {
    const before = await BaselineStep.prepare(input(tmpDir));
    await before.afterRun([await runSamplesFile(tmpDir)], undefined);
    const error = await usageRefusal(
      BaselineStep.prepare(
        input(tmpDir, {
          baselines: [path.join(tmpDir, "baseline.json")],
          target: { embedded: false, origin: "https://api.example.com" },
        }),
      ),
    );
    expect(error.message).toMatch(/^cannot compare runs against different targets/);
  });
});

describe("BaselineStep after a capacity search", () => {
  const CAPACITY = runConfig("capacity", { rate: 50, vus: 4 });
  const objectives = ["events_failed rate<0.01", "http_req_duration{endpoint:events} p(95)<500"];
  const figure = {
    kind: "bracketed",
    held: 300,
    broken: { rate: 400 } as CapacityStepResult,
    limited: undefined,
  } as CapacityFigure;

  it("keeps the capacity found, with no units, whatever rate the search started from", async ({ tmpDir }) => {
    const step = await BaselineStep.prepare(
      input(tmpDir, { config: CAPACITY, capacityObjectives: objectives }),
    );
    expect(await step.afterCapacity(figure)).toBeUndefined();
    const record = await json(path.join(tmpDir, "baseline.json"));
    expect(record.units).toEqual([]);
    expect(record.warmUpUnits).toBe(0);
    expect(record.capacity).toEqual({
      kind: "bracketed",
      held: 300,
      broken: 400,
      limitedAt: null,
      objectives,
    });
    expect(record.settings).toMatchObject({ scenario: "capacity", rate: null, durationSeconds: null });
  });

  it("compares with a capacity baseline held to the same objectives, and refuses one held to others", async ({
    tmpDir,
  }) => {
    const first = await BaselineStep.prepare(
      input(tmpDir, { config: CAPACITY, capacityObjectives: objectives }),
    );
    await first.afterCapacity(figure);
    const file = path.join(tmpDir, "capacity-baseline.json");
    await writeFile(file, await readFile(path.join(tmpDir, "baseline.json")));
    // Another start rate is the same experiment: a capacity is compared whatever rate the search began at.
    const again = await BaselineStep.prepare(
      input(tmpDir, {
        config: runConfig("capacity", { rate: 80, vus: 4 }),
        capacityObjectives: objectives,
        baselines: [file],
      }),
    );
    const compared = await again.afterCapacity(figure);
    expect(compared?.addition.baseline?.regressed).toEqual([]);
    const error = await usageRefusal(
      BaselineStep.prepare(
        input(tmpDir, {
          config: CAPACITY,
          capacityObjectives: ["events_failed rate<0.05"],
          baselines: [file],
        }),
      ),
    );
    expect(error.message).toMatch(/^cannot compare runs with different load settings/);
  });
});
