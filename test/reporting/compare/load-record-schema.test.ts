import { describe, expect, it } from "vitest";
import type { LoadRecord } from "../../../reporting/compare/index.ts";
import { claimsLoadRecord, MAX_BUCKET_INDEX, parseLoadRecord } from "../../../reporting/compare/index.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

/** The record as a baseline file holds it: written as JSON and read back, as `compare` reads one. */
const asRead = (record: unknown): unknown => JSON.parse(JSON.stringify(record));
const RECORD: LoadRecord = loadRecord(3, steady(4));

/** The record with one field replaced, by path. */
function withField(path: readonly (string | number)[], value: unknown): unknown {
  const copy = asRead(RECORD) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = value;
  return copy;
}

const problemOf = (value: unknown): string => {
  const reading = parseLoadRecord(value);
  expect(reading.ok).toBe(false);
  return reading.ok ? "" : reading.problem;
};

describe("claimsLoadRecord", () => {
  it("is true for a record of any version, false for anything else", () => {
    expect(claimsLoadRecord({ format: "event-harness-load-record/2" })).toBe(true);
    expect(claimsLoadRecord({ format: "event-harness-load-record/1" })).toBe(true);
    expect(claimsLoadRecord({ format: "event-api-harness/timeseries@1" })).toBe(false);
    expect(claimsLoadRecord({ format: 2 })).toBe(false);
    expect(claimsLoadRecord({})).toBe(false);
    expect(claimsLoadRecord(null)).toBe(false);
    expect(claimsLoadRecord("event-harness-load-record/2")).toBe(false);
  });
});

describe("parseLoadRecord", () => {
  it("reads back a record as load writes it, unchanged", () => {
    expect(parseLoadRecord(asRead(RECORD))).toEqual({ ok: true, record: asRead(RECORD) });
  });

  it("tells a record of another version to be recorded again", () => {
    expect(problemOf(withField(["format"], "event-harness-load-record/1"))).toBe(
      "format event-harness-load-record/1 was written by another version of the harness (this one reads event-harness-load-record/2): record the baseline again",
    );
  });

  it("refuses what is not a record, naming the record or the format", () => {
    expect(problemOf(null)).toMatch(/^the record: /);
    expect(problemOf([])).toMatch(/^the record: /);
    expect(problemOf(withField(["format"], "something/1"))).toMatch(/^format: /);
  });

  it("names the first wrong field the way a reader finds it in the file", () => {
    expect(problemOf(withField(["units", 1, "token", 0, 1], -1))).toMatch(/^units\[1\]\.token\[0\]\[1\]: /);
    expect(problemOf(withField(["units", 0, "events", 0, 0], MAX_BUCKET_INDEX + 1))).toMatch(
      /^units\[0\]\.events\[0\]\[0\]: /,
    );
    expect(problemOf(withField(["units", 2, "accepted"], 1.5))).toMatch(/^units\[2\]\.accepted: /);
    expect(problemOf(withField(["settings", "scenario"], "marathon"))).toMatch(/^settings\.scenario: /);
    expect(problemOf(withField(["settings", "vus"], 0))).toMatch(/^settings\.vus: /);
    expect(problemOf(withField(["instances"], 10_001))).toMatch(/^instances: /);
  });

  it("refuses a unit with a field it does not know, and a capacity with one", () => {
    const units = (asRead(RECORD) as LoadRecord).units;
    expect(problemOf(withField(["units"], [{ ...units[0], secret: "x" }]))).toMatch(/^units\[0\]: /);
    expect(
      problemOf(
        withField(["capacity"], {
          kind: "none",
          held: null,
          broken: null,
          limitedAt: null,
          objectives: [],
          extra: 1,
        }),
      ),
    ).toMatch(/^capacity: /);
  });

  it("accepts a warm-up as long as the run's units, and refuses a longer one", () => {
    expect(parseLoadRecord(withField(["warmUpUnits"], 4)).ok).toBe(true);
    expect(problemOf(withField(["warmUpUnits"], 5))).toBe(
      "warmUpUnits: the warm-up is longer than the run's units",
    );
  });

  it("refuses a record whose units span more time than any run could, and accepts two weeks", () => {
    const unit = (asRead(RECORD) as LoadRecord).units[0];
    const days = (n: number) => ({
      ...(asRead(RECORD) as LoadRecord),
      unitMs: 86_400_000,
      warmUpUnits: 0,
      units: new Array(n).fill(unit),
    });
    expect(parseLoadRecord(days(14)).ok).toBe(true);
    expect(problemOf(days(15))).toBe(
      "units: 15 units of 24h span 15 days, longer than any run the harness records (at most 14 days): not a record of a load run",
    );
  });
});
