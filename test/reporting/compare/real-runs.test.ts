import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { LoadRecord } from "../../../reporting/compare/index.ts";
import { compareLoad, comparisonStatus, parseLoadRecord } from "../../../reporting/compare/index.ts";

/**
 * Records of real runs (`load sustained --rate 100 --duration 60s`, the embedded sandbox adding 20 ms) on the
 * project's shared 2-core machine: two same-target runs, a third through a busier minute, and one with 26 ms added.
 */
function run(name: string): LoadRecord {
  const reading = parseLoadRecord(
    JSON.parse(readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), "utf8")),
  );
  if (!reading.ok) throw new Error(reading.problem);
  return reading.record;
}

const figure = (comparison: ReturnType<typeof compareLoad>, id: string) =>
  comparison.figures.find((f) => f.id === id);

describe("real runs at 100/s for 60 s", () => {
  it("finds the same target UNCHANGED, and does not judge a p99 from a tail of some 50 events", () => {
    for (const [base, candidate] of [
      ["same-target-1", "same-target-2"],
      ["same-target-2", "same-target-busier"],
      ["same-target-1", "same-target-busier"],
    ] as const) {
      const comparison = compareLoad(run(base), run(candidate));
      expect(comparisonStatus(comparison), `${base} → ${candidate}`).toBe("UNCHANGED");
      const p99 = figure(comparison, "events.p99");
      expect(p99?.status).toBe("NOT JUDGED");
      expect(p99?.reason).toMatch(/^a thin tail: \d+ events beyond p99 on the side with fewer in /);
    }
  });

  it("finds 6 ms more on a 20 ms sandbox REGRESSED on the median and the p95 (about +35 %)", () => {
    for (const base of ["same-target-1", "same-target-2"]) {
      const comparison = compareLoad(run(base), run("plus-6-ms"));
      expect(comparisonStatus(comparison)).toBe("REGRESSED");
      for (const id of ["events.p50", "events.p95"])
        expect(figure(comparison, id)?.status, `${base} ${id}`).toBe("REGRESSED");
      expect(comparison.notes).toContain(
        "the sandbox added 20 ms to the baseline's answers and 26 ms to this run's: the latency figures measure that",
      );
    }
  });
});
