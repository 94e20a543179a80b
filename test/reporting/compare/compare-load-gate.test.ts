import { describe, expect, it } from "vitest";
import type { LoadRecord, UnitRecord } from "../../../reporting/compare/index.ts";
import {
  compareLoad,
  comparisonLine,
  comparisonStatus,
  LatencyHistogram,
} from "../../../reporting/compare/index.ts";
import type { UnitShape } from "../../support/load-record-fixture.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";
import { seededUniform } from "../../support/seeded-uniform.ts";

/** 40 steady units whose first six each hold one token request, at the latencies given. */
function withTokens(seed: number, tokenMs: readonly number[]): LoadRecord {
  const shapes: UnitShape[] = steady(40, 2, { tokens: 0 }).map((unit, i) =>
    i < tokenMs.length ? { ...unit, tokens: 1, tokenMs: tokenMs[i] as number } : unit,
  );
  return loadRecord(seed, shapes);
}

const figure = (comparison: ReturnType<typeof compareLoad>, id: string) =>
  comparison.figures.find((f) => f.id === id);

/** Replaces every unit's token histogram with `count` requests around `ms` (seeded), spread over the units. */
function tokenHeavy(record: LoadRecord, count: number, ms: number, seed: number): LoadRecord {
  const random = seededUniform(seed);
  const perUnit = Math.ceil(count / record.units.length);
  let left = count;
  const units: UnitRecord[] = record.units.map((unit) => {
    const token = new LatencyHistogram();
    for (let i = 0; i < perUnit && left > 0; i += 1, left -= 1) token.add(ms * (0.6 + 0.8 * random()));
    return { ...unit, token: token.entries(), tokenMax: token.max };
  });
  return { ...record, units };
}

describe("compareLoad as a release gate", () => {
  it("keeps a figure without enough samples out of the verdict, naming it and what would judge it", () => {
    // Six token requests a side, as a default sustained run makes: too few to tell a 5 ms change from none.
    const comparison = compareLoad(withTokens(1, [4, 30, 8, 16, 5, 40]), withTokens(2, [6, 4, 35, 9, 20, 5]));
    const token = figure(comparison, "token.p50");
    expect(token?.status).toBe("NOT JUDGED");
    expect(token?.reason).toMatch(
      /6 baseline and 6 candidate request\(s\) from 6 and 6 unit\(s\) of 1\.0 s; 20 units of time holding token requests a side judge it: more VUs/,
    );
    expect(token?.reason).toContain("token-storm");
    expect(comparisonStatus(comparison)).toBe("UNCHANGED");
    expect(comparisonLine(comparison)).toBe(
      "baseline UNCHANGED (token latency not judged: 6 samples, 7.99 ms → 6.82 ms)",
    );
  });

  it("calls an 8× slower token endpoint REGRESSED from six requests a side at six moments: an interval that clears the margin decides", () => {
    const comparison = compareLoad(
      withTokens(1, [20, 22, 21, 25, 23, 22]),
      withTokens(2, [160, 170, 168, 180, 175, 165]),
    );
    expect(figure(comparison, "token.p50")?.status).toBe("REGRESSED");
    expect(comparisonStatus(comparison)).toBe("REGRESSED");
  });

  it("counts a burst of token requests made at one moment once: a busy moment is not a slower endpoint", () => {
    // Ten VUs fetch their tokens together at the start; on a busy machine the whole burst is slow at once.
    const burst = (seed: number, tokenMs: number) =>
      loadRecord(
        seed,
        steady(40, 2, { tokens: 0 }).map((unit, i) =>
          i === 0 || i === 20 ? { ...unit, tokens: 10, tokenMs } : unit,
        ),
      );
    const token = figure(compareLoad(burst(1, 25), burst(2, 120)), "token.p50");
    expect(token?.status).toBe("NOT JUDGED");
    expect(token?.samples).toMatchObject({
      baseline: 20,
      candidate: 20,
      units: { baseline: 2, candidate: 2 },
    });
    expect(comparisonLine(compareLoad(burst(1, 25), burst(2, 120)))).toContain(
      "token latency not judged: 20 samples from 2 units of 1.0 s",
    );
  });

  it("is INCONCLUSIVE, never UNCHANGED, when no figure had the samples to be judged", () => {
    const short = (seed: number) => loadRecord(seed, steady(5, 2, { tokens: 0 }));
    const comparison = compareLoad(short(1), short(2));
    expect(comparison.figures.every((f) => f.status === "NOT JUDGED")).toBe(true);
    expect(comparisonStatus(comparison)).toBe("INCONCLUSIVE");
    expect(comparisonLine(comparison)).toMatch(
      /^baseline INCONCLUSIVE: no figure had the samples to be judged/,
    );
  });

  it("compares 50,000 token requests a side from their histograms, finding a token endpoint twice as slow", () => {
    const base = tokenHeavy(loadRecord(1, steady(100)), 50_000, 20, 11);
    const slower = tokenHeavy(loadRecord(2, steady(100)), 50_000, 40, 12);
    const token = figure(compareLoad(base, slower), "token.p50");
    expect(token?.samples).toMatchObject({ baseline: 50_000, candidate: 50_000 });
    expect(token?.status).toBe("REGRESSED");
    // Uniform 12–28 ms against 24–56 ms: the shift's median is 20 ms, within the buckets' 2 %.
    expect(token?.shift?.estimate).toBeGreaterThan(19.5);
    expect(token?.shift?.estimate).toBeLessThan(20.5);
    const same = figure(
      compareLoad(base, tokenHeavy(loadRecord(3, steady(100)), 50_000, 20, 13)),
      "token.p50",
    );
    expect(same?.status).toBe("UNCHANGED");
  });

  it("reads a hostile count as that many requests of one bucket, without listing them", () => {
    const hostile = (seed: number): LoadRecord => {
      const record = loadRecord(seed, steady(40));
      const [first, ...rest] = record.units;
      return {
        ...record,
        units: [{ ...(first as UnitRecord), token: [[100, 1e9]], tokenMax: 0.03 }, ...rest],
      };
    };
    const token = figure(compareLoad(hostile(1), hostile(2)), "token.p50");
    expect(token?.samples.baseline).toBeGreaterThan(1e9);
    expect(token?.status).toBe("UNCHANGED");
  });
});
