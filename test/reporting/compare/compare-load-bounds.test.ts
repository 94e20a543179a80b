import { afterEach, describe, expect, it, vi } from "vitest";
import {
  compareLoad,
  compareLoadInterruptibly,
  DEFAULT_COMPARE_OPTIONS,
  LatencyHistogram,
} from "../../../reporting/compare/index.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("compareLoad's work is bounded by its records, not by their product", () => {
  it("measures the baseline once, not once per window", () => {
    // 600 units a side judged in 5 s windows: 120 windows, each against the same whole baseline.
    const base = loadRecord(1, steady(600), { events: 100 });
    const candidate = loadRecord(2, steady(600), { events: 100 });
    const reads = vi.spyOn(LatencyHistogram, "fromEntries");
    const comparison = compareLoad(base, candidate, { ...DEFAULT_COMPARE_OPTIONS, windowSeconds: 5 });
    expect(comparison.windowsJudged).toBeGreaterThan(100);
    // Each unit's histograms are read a few times (whole-run figures, its own window), never once per window.
    expect(reads.mock.calls.length).toBeLessThan(10 * (base.units.length + candidate.units.length));
  });

  it("judges at most 1000 windows, widening them past that and saying so", () => {
    // A short baseline keeps the old per-window cost low: the count of windows is what is under test.
    const base = loadRecord(1, steady(40), { events: 100 });
    const candidate = loadRecord(2, steady(5_102), { events: 100 });
    const comparison = compareLoad(base, candidate, { ...DEFAULT_COMPARE_OPTIONS, windowSeconds: 5 });
    expect(comparison.windowsJudged).toBeGreaterThan(500);
    expect(comparison.windowsJudged).toBeLessThanOrEqual(1000);
    expect(comparison.windowSeconds).toBe(6);
    expect(comparison.notes).toContain(
      "windows of 6 s, not the 5 s asked: a comparison judges at most 1000 windows of a run",
    );
  });
});

describe("compareLoadInterruptibly", () => {
  it("gives the event loop turns while it judges, and stops at the next one once the signal is aborted", async () => {
    const base = loadRecord(1, steady(2_000), { events: 100 });
    const candidate = loadRecord(2, steady(2_000), { events: 100 });
    const stop = new AbortController();
    const judging = compareLoadInterruptibly(
      base,
      candidate,
      { ...DEFAULT_COMPARE_OPTIONS, windowSeconds: 5 },
      stop.signal,
    );
    // Queued behind the judging's first stretch of work: it runs at its first turn.
    setImmediate(() => stop.abort(new Error("received SIGTERM")));
    await expect(judging).rejects.toThrow("received SIGTERM");
  });

  it("judges as compareLoad does when nothing stops it", async () => {
    const base = loadRecord(1, steady(120), { events: 100 });
    const candidate = loadRecord(2, steady(120, 4), { events: 100 });
    const options = { ...DEFAULT_COMPARE_OPTIONS, windowSeconds: 10 };
    expect(
      await compareLoadInterruptibly(base, candidate, options, new AbortController().signal),
    ).toStrictEqual(compareLoad(base, candidate, options));
  });
});
