import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PartOutcome } from "../../../reporting/run/index.ts";
import {
  BASELINE_COMPARISON_FILE,
  readPartDetails,
  TIME_SERIES_FILE,
  TIME_SERIES_FORMAT,
} from "../../../reporting/run/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { CONTRACT_CHECKS } from "./report-fixture.ts";

const outcome = (id: string, kind: PartOutcome["kind"]): PartOutcome => ({
  id,
  kind,
  title: id,
  command: `event-harness ${kind}`,
  verdict: "passed",
  exitCode: 0,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1,
});

/** Writes `files` (name → JSON value, or raw text) into the part's folder under `runDir`. */
async function part(runDir: string, id: string, files: Record<string, unknown>): Promise<void> {
  const dir = path.join(runDir, id);
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  }
}

const SERIES = {
  format: TIME_SERIES_FORMAT,
  startedAt: 0,
  stepSeconds: 1,
  length: 1,
  lastStepSeconds: 1,
  counts: { "events.accepted": [5] },
  latency: {},
  gauges: {},
};
const COMPARISON = { baseline: "baseline.json", status: "UNCHANGED", figures: [] };
const LOAD_SUMMARY = {
  metrics: {
    events_failed: { type: "rate", contains: "default", values: { rate: 0, passes: 0, fails: 40 } },
  },
  state: { testRunDurationMs: 2000 },
  harness: { verdictLine: "PASSED: thresholds held" },
};

describe("readPartDetails", () => {
  it("reads a checks part's results.json and lists its files, hidden ones left out, sorted", async ({
    tmpDir,
  }) => {
    await part(tmpDir, "contract", {
      "summary.md": "# x",
      "results.json": {
        suite: "contract (fast)",
        durationMs: 1200,
        seed: 7,
        checks: CONTRACT_CHECKS,
        acceptedFile: "accepted.json",
        accepted: [{ state: "waived", entry: { id: "token.no-store" }, level: "SHOULD" }],
      },
      ".progress": "",
    });
    const details = await readPartDetails(tmpDir, outcome("contract", "contract"));
    expect(details.files).toEqual(["contract/results.json", "contract/summary.md"]);
    expect(details.checks).toEqual({
      suite: "contract (fast)",
      durationMs: 1200,
      seed: 7,
      checks: CONTRACT_CHECKS,
      accepted: [{ state: "waived", entry: { id: "token.no-store" }, level: "SHOULD" }],
      acceptedFile: "accepted.json",
    });
    expect(details.load).toBeUndefined();
  });

  it("keeps only the well-formed checks of a results.json, with defaults for what is missing", async ({
    tmpDir,
  }) => {
    const [first] = CONTRACT_CHECKS;
    await part(tmpDir, "rotation", {
      "results.json": {
        suite: 3,
        checks: [first, { id: "x" }, { ...first, evidence: "none" }, null, "check", { ...first, status: 1 }],
        seed: "7",
      },
    });
    const details = await readPartDetails(tmpDir, outcome("rotation", "rotation"));
    expect(details.checks).toEqual({ suite: "", durationMs: 0, checks: [first], accepted: [] });
  });

  it("leaves out a results.json that is not JSON or holds no checks, and a folder that is not there", async ({
    tmpDir,
  }) => {
    await part(tmpDir, "contract", { "results.json": "{ not json" });
    await part(tmpDir, "rotation", { "results.json": { checks: "all" } });
    expect(await readPartDetails(tmpDir, outcome("contract", "contract"))).toEqual({
      outcome: outcome("contract", "contract"),
      files: ["contract/results.json"],
    });
    expect((await readPartDetails(tmpDir, outcome("rotation", "rotation"))).checks).toBeUndefined();
    expect(await readPartDetails(tmpDir, outcome("never", "contract"))).toEqual({
      outcome: outcome("never", "contract"),
      files: [],
    });
  });

  it("reads a load part's summary, time series and baseline comparison", async ({ tmpDir }) => {
    await part(tmpDir, "load-sustained", {
      "summary.json": LOAD_SUMMARY,
      [TIME_SERIES_FILE]: SERIES,
      [BASELINE_COMPARISON_FILE]: COMPARISON,
    });
    const details = await readPartDetails(tmpDir, outcome("load-sustained", "load"));
    expect(details.load?.verdictLine).toBe("PASSED: thresholds held");
    expect(details.load?.facts.runSeconds).toBe(2);
    expect(details.series).toEqual(SERIES);
    expect(details.comparison).toEqual(COMPARISON);
    expect(details.capacity).toBeUndefined();
    expect(details.checks).toBeUndefined();
  });

  it("leaves out a time series of another format and a comparison without its baseline or figures", async ({
    tmpDir,
  }) => {
    await part(tmpDir, "load-sustained", {
      "summary.json": LOAD_SUMMARY,
      [TIME_SERIES_FILE]: { ...SERIES, format: "event-api-harness/timeseries@0" },
      [BASELINE_COMPARISON_FILE]: { status: "UNCHANGED", figures: [] },
    });
    await part(tmpDir, "load-spike", {
      [TIME_SERIES_FILE]: { ...SERIES, length: "1" },
      [BASELINE_COMPARISON_FILE]: { baseline: "b.json", status: "UNCHANGED", figures: "none" },
    });
    const sustained = await readPartDetails(tmpDir, outcome("load-sustained", "load"));
    expect(sustained.series).toBeUndefined();
    expect(sustained.comparison).toBeUndefined();
    const spike = await readPartDetails(tmpDir, outcome("load-spike", "load"));
    expect(spike).toEqual({
      outcome: outcome("load-spike", "load"),
      files: ["load-spike/baseline-comparison.json", "load-spike/timeseries.json"],
    });
  });

  it("reads a capacity search as a capacity part: its digest and comparison, no load figures or series", async ({
    tmpDir,
  }) => {
    await part(tmpDir, "load-capacity", {
      "summary.json": { ...LOAD_SUMMARY, harness: { capacity: { held: 40, steps: [] } } },
      [TIME_SERIES_FILE]: SERIES,
      [BASELINE_COMPARISON_FILE]: COMPARISON,
    });
    const details = await readPartDetails(tmpDir, outcome("load-capacity", "load"));
    expect(details.capacity?.held).toBe(40);
    expect(details.comparison).toEqual(COMPARISON);
    expect(details.load).toBeUndefined();
    expect(details.series).toBeUndefined();
  });
});
