import { describe, expect, it } from "vitest";
import type { LoadRecord, UnitRecord } from "../../../reporting/compare/index.ts";
import {
  compareLoad,
  comparisonJunitSuite,
  comparisonStatus,
  DEFAULT_COMPARE_OPTIONS,
  LOAD_RECORD_FORMAT,
  renderComparisonMarkdown,
  renderComparisonText,
  settingsDifferences,
} from "../../../reporting/compare/index.ts";
import { LatencyHistogram } from "../../../reporting/run/index.ts";
import { seededUniform } from "../../support/seeded-uniform.ts";

interface UnitShape {
  readonly medianMs: number;
  readonly failed?: number;
  readonly accepted?: number;
}

/** A run of `shapes.length` units of 1 s, each with 50 events around its median latency (seeded jitter). */
function record(
  seed: number,
  shapes: readonly UnitShape[],
  overrides: Partial<LoadRecord["settings"]> = {},
): LoadRecord {
  const random = seededUniform(seed);
  const units: UnitRecord[] = shapes.map((shape) => {
    const events = new LatencyHistogram();
    const token = new LatencyHistogram();
    for (let i = 0; i < 50; i += 1) events.add(shape.medianMs * (0.7 + 0.6 * random()) + 3 * random() ** 8);
    for (let i = 0; i < 2; i += 1) token.add(4 * (0.8 + 0.4 * random()));
    return {
      events: events.entries(),
      eventsMax: events.max,
      token: token.entries(),
      tokenMax: token.max,
      accepted: shape.accepted ?? 50 - (shape.failed ?? 0),
      failed: shape.failed ?? 0,
    };
  });
  return {
    format: LOAD_RECORD_FORMAT,
    kind: "load",
    settings: {
      scenario: "sustained",
      rate: 50,
      vus: 10,
      durationSeconds: shapes.length,
      clientModel: "cached",
      expiresInSeconds: 300,
      ...overrides,
    },
    versions: { harness: "0.1.0", k6: "v2.2.0" },
    runId: `run-${seed}`,
    startedAt: "2026-11-25T00:00:00.000Z",
    target: { baseUrl: "http://127.0.0.1:1/api", embedded: true },
    instances: 1,
    unitMs: 1000,
    warmUpUnits: 2,
    units,
  };
}

const steady = (seconds: number, medianMs = 2): UnitShape[] =>
  Array.from({ length: seconds }, () => ({ medianMs }));

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
      /REGRESSED\s+events latency p95 per unit: \d\.\d+ ms → 4\d\.\d ms/,
    );
    expect(renderComparisonMarkdown(comparison, "base.json")).toContain(
      "| **REGRESSED** | events latency p95 per unit | whole run |",
    );
    const suite = comparisonJunitSuite(comparison, "load.sustained");
    expect(suite.cases.filter((c) => c.outcome.kind === "failure").map((c) => c.name)).toContain(
      "events.p95",
    );
  });

  it("is INCONCLUSIVE, never a pass, with too few units", () => {
    const comparison = compareLoad(record(1, steady(6)), record(2, steady(6, 40)));
    const events = comparison.figures.filter((f) => f.id.startsWith("events."));
    expect(events.map((f) => f.status)).toEqual(Array(5).fill("INCONCLUSIVE"));
    expect(comparison.figures[0]?.reason).toMatch(
      /too few samples: 3 baseline and 3 candidate unit\(s\) of 1000 ms/,
    );
    // Token requests are counted one by one, over the whole run: 2 a second, 12 a side.
    expect(comparison.figures.find((f) => f.id === "token.p50")?.shift?.baselineCount).toBe(12);
  });

  it("fails a collapse in the last minute of a long run that the whole-run figure averages away, naming the window", () => {
    const base = record(1, steady(302));
    // 4 minutes steady, then the last minute fails a quarter of the events.
    const shapes = steady(302).map((s, i) => (i >= 242 ? { ...s, failed: 12 } : s));
    const comparison = compareLoad(base, record(2, shapes));
    expect(comparison.figures.find((f) => f.id === "events.failure-rate")?.status).not.toBe("REGRESSED");
    expect(comparison.windowsJudged).toBe(5);
    const regressed = comparison.windows.filter((f) => f.status === "REGRESSED");
    expect(regressed.map((f) => [f.id, f.window])).toEqual([
      ["events.failure-rate", { fromSeconds: 242, toSeconds: 301 }],
      ["events.accepted-rate", { fromSeconds: 242, toSeconds: 301 }],
    ]);
    expect(comparisonStatus(comparison)).toBe("REGRESSED");
    expect(renderComparisonText(comparison, "b")).toContain("events failure rate (window 242–301 s)");
  });

  it("names every load setting that differs", () => {
    expect(settingsDifferences(record(1, steady(10)), record(1, steady(10), { rate: 40, vus: 20 }))).toEqual([
      "rate 50 → 40",
      "vus 10 → 20",
    ]);
    expect(DEFAULT_COMPARE_OPTIONS.latencyFloor).toEqual({ relative: 0.2, absolute: 5 });
  });
});
