import { describe, expect, it } from "vitest";
import { generatorUsage } from "../../../cli/load/generator-usage.ts";
import type { K6CpuRecord } from "../../../k6-tooling/index.ts";

/** A k6 process on `cpus` CPUs that used `cpuSecondsPerSecond` each second for `seconds` seconds, sampled each second. */
function steady(cpus: number, cpuSecondsPerSecond: number, seconds: number): K6CpuRecord {
  return {
    cpus,
    samples: Array.from({ length: seconds + 1 }, (_, i) => ({
      atMs: i * 1000,
      cpuSeconds: i * cpuSecondsPerSecond,
      running: true,
    })),
  };
}

describe("generatorUsage", () => {
  it("takes the busiest process's share and counts the processes that had one", () => {
    const usage = generatorUsage([
      { cpu: steady(2, 0.5, 10), insufficientVus: 0 },
      { cpu: steady(2, 1.5, 10), insufficientVus: 0 },
      { cpu: steady(1, 0.2, 10), insufficientVus: 0 },
    ]);
    expect(usage.cpu?.processes).toBe(3);
    expect(usage.cpu?.cpus).toBe(2);
    expect(usage.cpu?.busiestShare).toBeCloseTo(0.75, 9);
    expect(usage.cpu?.meanShare).toBeCloseTo(0.75, 9);
    expect(usage.cpu?.seconds).toBe(10);
  });

  it("adds up the Insufficient VUs warnings of every process", () => {
    expect(
      generatorUsage([
        { cpu: undefined, insufficientVus: 2 },
        { cpu: undefined, insufficientVus: 5 },
      ]).insufficientVus,
    ).toBe(7);
  });

  it("has no CPU figure when no process was sampled long enough", () => {
    const once: K6CpuRecord = { cpus: 2, samples: [{ atMs: 0, cpuSeconds: 0, running: true }] };
    expect(
      generatorUsage([
        { cpu: undefined, insufficientVus: 0 },
        { cpu: once, insufficientVus: 1 },
      ]),
    ).toEqual({ cpu: undefined, insufficientVus: 1 });
    expect(generatorUsage([])).toEqual({ cpu: undefined, insufficientVus: 0 });
  });

  it("reads only the window it is given of each record", () => {
    // Idle for 10 s, then all of one CPU for 10 s: the judged part, 10–20 s, is the busy one.
    const record: K6CpuRecord = {
      cpus: 1,
      samples: Array.from({ length: 21 }, (_, i) => ({
        atMs: i * 1000,
        cpuSeconds: Math.max(0, i - 10),
        running: true,
      })),
    };
    const judged = generatorUsage([{ cpu: record, insufficientVus: 0 }], () => [10_000, 20_000]);
    expect(judged.cpu?.meanShare).toBeCloseTo(1, 9);
    expect(judged.cpu?.seconds).toBe(10);
    const whole = generatorUsage([{ cpu: record, insufficientVus: 0 }]);
    expect(whole.cpu?.meanShare).toBeCloseTo(0.5, 9);
  });
});
