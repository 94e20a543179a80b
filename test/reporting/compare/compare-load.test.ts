import { describe, expect, it } from "vitest";
import type { LoadRecord } from "../../../reporting/compare/index.ts";
import {
  compareLoad,
  comparisonJunitSuite,
  comparisonStatus,
  DEFAULT_COMPARE_OPTIONS,
  renderComparisonMarkdown,
  renderComparisonText,
  settingsDifferences,
} from "../../../reporting/compare/index.ts";
import type { UnitShape } from "../../support/load-record-fixture.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

const record = (
  seed: number,
  shapes: readonly UnitShape[],
  settings: Partial<LoadRecord["settings"]> = {},
  events?: number,
) => loadRecord(seed, shapes, { settings, ...(events === undefined ? {} : { events }) });

describe("compareLoad", () => {
  it("finds the same target twice UNCHANGED on the events figures", () => {
    const comparison = compareLoad(record(1, steady(40)), record(2, steady(40)));
    for (const id of ["events.p50", "events.p95", "events.failure-rate", "events.accepted-rate"]) {
      expect(comparison.figures.find((f) => f.id === id)?.status, id).toBe("UNCHANGED");
    }
    expect(comparisonStatus(comparison)).not.toBe("REGRESSED");
  });

  it("finds +30 ms REGRESSED on every events latency figure, and says so in text, Markdown and JUnit", () => {
    const comparison = compareLoad(record(1, steady(40)), record(2, steady(40, 32)));
    for (const id of ["events.p50", "events.p95", "events.p99"]) {
      expect(comparison.figures.find((f) => f.id === id)?.status, id).toBe("REGRESSED");
    }
    expect(comparisonStatus(comparison)).toBe("REGRESSED");
    expect(renderComparisonText(comparison, "base.json")).toMatch(
      /REGRESSED\s+events latency p95 per 1\.0 s: \d\.\d+ ms → 4\d\.\d ms/,
    );
    expect(renderComparisonMarkdown(comparison, "base.json")).toContain(
      "| **REGRESSED** | events latency p95 per 1.0 s | whole run |",
    );
    const suite = comparisonJunitSuite(comparison, "load.sustained");
    expect(suite.cases.filter((c) => c.outcome.kind === "failure").map((c) => c.name)).toContain(
      "events.p95",
    );
  });

  it("calls every events figure NOT JUDGED, never a pass, with too few units, naming what would judge it", () => {
    const comparison = compareLoad(record(1, steady(6)), record(2, steady(6, 40)));
    const events = comparison.figures.filter((f) => f.id.startsWith("events."));
    expect(events.map((f) => f.status)).toEqual(Array(5).fill("NOT JUDGED"));
    expect(comparison.figures[0]?.reason).toMatch(
      /too few samples for an interval: 3 baseline and 3 candidate unit\(s\) of 1\.0 s; 20 units a side judge it: a run of about 23s at this rate/,
    );
    // Token requests are counted one by one, over the whole run: 2 a second, 12 a side.
    expect(comparison.figures.find((f) => f.id === "token.p50")?.shift?.baselineCount).toBe(12);
  });

  it("fails a collapse in the last minute of a long run that the whole-run figure averages away, naming the window", () => {
    const base = record(1, steady(302), {}, 50);
    // 4 minutes steady, then the last minute fails a quarter of the events.
    const shapes = steady(302).map((s, i) => (i >= 242 ? { ...s, failed: 12 } : s));
    const comparison = compareLoad(base, record(2, shapes, {}, 50));
    expect(comparison.figures.find((f) => f.id === "events.failure-rate")?.status).not.toBe("REGRESSED");
    expect(comparison.windowsJudged).toBe(5);
    const regressed = comparison.windows.filter((f) => f.status === "REGRESSED");
    expect(regressed.map((f) => [f.id, f.window])).toEqual([
      ["events.failure-rate", { fromSeconds: 242, toSeconds: 301 }],
      ["events.accepted-rate", { fromSeconds: 242, toSeconds: 301 }],
    ]);
    expect(comparisonStatus(comparison)).toBe("REGRESSED");
    expect(renderComparisonText(comparison, "b")).toContain(
      "events failure rate per 2.0 s (window 242–301 s)",
    );
  });

  it("names every load setting that differs", () => {
    expect(settingsDifferences(record(1, steady(10)), record(1, steady(10), { rate: 40, vus: 20 }))).toEqual([
      "rate 50 → 40",
      "vus 10 → 20",
    ]);
    expect(DEFAULT_COMPARE_OPTIONS.latencyFloor).toEqual({ relative: 0.2, absolute: 5 });
  });
});
