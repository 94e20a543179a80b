import { describe, expect, it } from "vitest";
import type { LoadRecord, TargetRecord } from "../../../reporting/compare/index.ts";
import {
  comparisonNotes,
  settingsDifferences,
  targetMismatches,
  unitMsFor,
  warmUpUnitsFor,
} from "../../../reporting/compare/index.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

const record = (
  shape: Parameters<typeof loadRecord>[2] = {},
  extra: Partial<LoadRecord> = {},
): LoadRecord => ({
  ...loadRecord(1, steady(3), shape),
  ...extra,
});

const sandbox = (latencyMs: number, faults: string[] = [], throughputLimit?: number): TargetRecord => ({
  embedded: true,
  origin: "http://127.0.0.1:40000",
  sandbox: { latencyMs, faults, ...(throughputLimit === undefined ? {} : { throughputLimit }) },
});
const deployed = (origin: string): TargetRecord => ({ embedded: false, origin });

describe("unitMsFor", () => {
  it("keeps half-second units up to 5 minutes, then grows them in half seconds to keep about 600 units", () => {
    expect(unitMsFor(0)).toBe(500);
    expect(unitMsFor(60)).toBe(500);
    expect(unitMsFor(300)).toBe(500);
    // 301 s / 600 = 501.7 ms, rounded up to the next half second.
    expect(unitMsFor(301)).toBe(1000);
    expect(unitMsFor(600)).toBe(1000);
    expect(unitMsFor(3600)).toBe(6000);
  });
});

describe("warmUpUnitsFor", () => {
  it("leaves out a tenth of the run, at most 10 s, in whole units and at least one", () => {
    expect(warmUpUnitsFor(60, 500)).toBe(12);
    expect(warmUpUnitsFor(600, 1000)).toBe(10);
    expect(warmUpUnitsFor(3600, 6000)).toBe(2);
    expect(warmUpUnitsFor(7, 500)).toBe(2);
    expect(warmUpUnitsFor(1, 500)).toBe(1);
    expect(warmUpUnitsFor(0, 500)).toBe(1);
  });
});

describe("settingsDifferences", () => {
  it("is empty for two runs of the same experiment", () => {
    expect(settingsDifferences(record(), record())).toEqual([]);
  });

  it("names every setting that differs, none for a missing value, and the unit", () => {
    const base = record();
    const candidate = record(
      {
        settings: {
          scenario: "spike",
          rate: null,
          durationSeconds: 60,
          clientModel: "fixed",
          expiresInSeconds: null,
        },
      },
      { unitMs: 500 },
    );
    expect(settingsDifferences(base, candidate)).toEqual([
      "scenario sustained → spike",
      "rate 50 → none",
      "durationSeconds 3 → 60",
      "clientModel sliding → fixed",
      "expiresInSeconds 300 → none",
      "unitMs 1000 → 500",
    ]);
  });

  it("names other capacity objectives, a run without any as none", () => {
    const capacity = (objectives: string[]) => ({
      capacity: { kind: "bracketed" as const, held: 40, broken: 80, limitedAt: null, objectives },
    });
    const base = record({}, capacity(["events_failed rate<0.01", "http_req_duration p(95)<500"]));
    expect(settingsDifferences(base, record({}, capacity(["events_failed rate<0.01"])))).toEqual([
      "objectives events_failed rate<0.01, http_req_duration p(95)<500 → events_failed rate<0.01",
    ]);
    expect(settingsDifferences(base, record())).toEqual([
      "objectives events_failed rate<0.01, http_req_duration p(95)<500 → none",
    ]);
    expect(
      settingsDifferences(
        base,
        record({}, capacity(["events_failed rate<0.01", "http_req_duration p(95)<500"])),
      ),
    ).toEqual([]);
  });
});

describe("targetMismatches", () => {
  it("refuses the embedded sandbox against a deployed API, either way round, with one reason", () => {
    expect(targetMismatches(sandbox(0), deployed("https://api.example"))).toEqual([
      "the baseline ran against the embedded sandbox, this run against a deployed API (https://api.example)",
    ]);
    expect(targetMismatches(deployed("https://api.example"), sandbox(5, ["slow"]))).toEqual([
      "the baseline ran against a deployed API (https://api.example), this run against the embedded sandbox",
    ]);
  });

  it("accepts two deployed APIs on other origins: another deployment is not another experiment", () => {
    expect(targetMismatches(deployed("https://blue.example"), deployed("https://green.example"))).toEqual([]);
  });

  it("refuses sandboxes with other faults, whatever their order, or another throughput limit", () => {
    expect(targetMismatches(sandbox(0, ["b", "a"]), sandbox(0, ["a", "b"]))).toEqual([]);
    expect(targetMismatches(sandbox(0, ["flaky"]), sandbox(0))).toEqual(["sandbox faults flaky → none"]);
    expect(targetMismatches(sandbox(0, [], 100), sandbox(0))).toEqual([
      "sandbox throughput limit 100 → none events/s",
    ]);
  });

  it("refuses another added latency unless a slowdown is simulated on purpose", () => {
    expect(targetMismatches(sandbox(0), sandbox(20))).toEqual([
      "sandbox latency 0 ms → 20 ms (a slowdown simulated on purpose is compared with --allow-latency-change)",
    ]);
    expect(targetMismatches(sandbox(0), sandbox(20), true)).toEqual([]);
  });
});

describe("comparisonNotes", () => {
  it("says nothing of two runs alike", () => {
    expect(comparisonNotes(record(), record())).toEqual([]);
  });

  it("notes another origin of a deployed API, other instances and another k6", () => {
    const base = record({ target: deployed("https://blue.example") });
    const candidate = record({ target: deployed("https://green.example"), instances: 2, k6: "v2.3.0" });
    expect(comparisonNotes(base, candidate)).toEqual([
      "another origin: https://blue.example → https://green.example",
      "instances 1 → 2",
      "k6 v2.2.0 → v2.3.0",
    ]);
  });

  it("notes the latency the sandbox added to each side, and never the sandbox's own port", () => {
    const base = record({ target: { ...sandbox(0), origin: "http://127.0.0.1:1" } });
    const candidate = record({ target: { ...sandbox(20), origin: "http://127.0.0.1:2" } });
    expect(comparisonNotes(base, candidate)).toEqual([
      "the sandbox added 0 ms to the baseline's answers and 20 ms to this run's: the latency figures measure that",
    ]);
  });
});
