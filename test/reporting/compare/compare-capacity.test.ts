import { describe, expect, it } from "vitest";
import { applyToComparison } from "../../../reporting/accepted/index.ts";
import type { CapacityRecord, LoadRecord } from "../../../reporting/compare/index.ts";
import {
  compareCapacity,
  compareLoad,
  comparisonLine,
  comparisonStatus,
  DEFAULT_COMPARE_OPTIONS,
  parseLoadRecord,
  settingsDifferences,
} from "../../../reporting/compare/index.ts";
import { loadRecord } from "../../support/load-record-fixture.ts";

const OBJECTIVES = ["events_failed rate<0.01", "http_req_duration{endpoint:events} p(95)<500"];
const floor = DEFAULT_COMPARE_OPTIONS.capacityFloor;

function capacity(held: number | null, broken: number | null, kind?: CapacityRecord["kind"]): CapacityRecord {
  return {
    kind: kind ?? (held === null ? "none" : broken === null ? "at-least" : "bracketed"),
    held,
    broken,
    limitedAt: null,
    objectives: OBJECTIVES,
  };
}

function record(found: CapacityRecord, seed = 1): LoadRecord {
  const base = loadRecord(seed, [], {
    settings: { scenario: "capacity", rate: null, durationSeconds: null },
  });
  return { ...base, warmUpUnits: 0, units: [], capacity: found };
}

describe("compareCapacity", () => {
  it("reads a drop beyond both searches' resolution and the noise as REGRESSED", () => {
    // 1000 held (1040 broke) → 700 held (740 broke): the capacity fell by 260 to 340/s, past 10 % of 1000.
    const judged = compareCapacity(capacity(1000, 1040), capacity(700, 740), floor);
    expect(judged.status).toBe("REGRESSED");
    expect(judged.shift).toMatchObject({ low: -340, high: -260, estimate: -300 });
    expect(judged.margin).toBe(100);
    expect(judged.reason).toBe(
      "baseline 1000/s held, 1040/s broken, this run 700/s held, 740/s broken: the change lies between -340/s and -260/s, change that matters 100/s",
    );
  });

  it("never reads a drop within the noise, or within a coarse resolution, as REGRESSED", () => {
    // 5 % lower, each within 4 %: UNCHANGED.
    expect(compareCapacity(capacity(1000, 1040), capacity(950, 990), floor).status).toBe("UNCHANGED");
    // 20 % lower by the rates held, but the candidate's search stopped at 600 held, 1200 broke: it may be unchanged.
    expect(compareCapacity(capacity(1000, 1040), capacity(800, 1200), floor).status).toBe("INCONCLUSIVE");
  });

  it("reads a rise beyond the noise as IMPROVED, and a lower bound as never REGRESSED", () => {
    expect(compareCapacity(capacity(1000, 1040), capacity(1500, 1560), floor).status).toBe("IMPROVED");
    // The generator (or --max-rate) stopped the candidate at 900 held: the API may hold far more.
    expect(compareCapacity(capacity(1000, 1040), capacity(900, null), floor).status).toBe("INCONCLUSIVE");
    expect(compareCapacity(capacity(1000, 1040), capacity(1200, null), floor).status).toBe("IMPROVED");
  });

  it("judges nothing against a baseline that held no rate, and REGRESSED against one that did when none holds now", () => {
    expect(compareCapacity(capacity(null, 5), capacity(100, 110), floor).status).toBe("NOT JUDGED");
    expect(compareCapacity(capacity(1000, 1040), capacity(null, 5), floor).status).toBe("REGRESSED");
  });
});

describe("a capacity run against its baseline", () => {
  it("is compared by its capacity alone, with the other figures' four outcomes and the ledger's rules", () => {
    const comparison = compareLoad(record(capacity(1000, 1040)), record(capacity(700, 740), 2));
    expect(comparison.figures.map((f) => [f.id, f.status])).toEqual([["capacity", "REGRESSED"]]);
    expect(comparisonStatus(comparison)).toBe("REGRESSED");
    expect(comparisonLine(comparison)).toBe("baseline REGRESSED (capacity -300/s)");
    const today = new Date().toISOString().slice(0, 10);
    const waived = applyToComparison(comparison, {
      entries: [{ id: "baseline.capacity", reason: "smaller nodes", ticket: "OPS-1", expires: "2999-01-01" }],
      today,
    } as never);
    expect(comparisonStatus(waived.comparison)).toBe("WAIVED");
  });

  it("keeps the capacity in its baseline file, and refuses a baseline held to other objectives", () => {
    const kept = record(capacity(1000, 1040));
    expect(parseLoadRecord(JSON.parse(JSON.stringify(kept)))).toEqual({ ok: true, record: kept });
    const stricter = record({
      ...capacity(900, 940),
      objectives: ["http_req_duration{endpoint:events} p(95)<300"],
    });
    expect(settingsDifferences(kept, stricter)).toEqual([
      "objectives events_failed rate<0.01, http_req_duration{endpoint:events} p(95)<500 → http_req_duration{endpoint:events} p(95)<300",
    ]);
    expect(parseLoadRecord({ ...kept, capacity: { ...kept.capacity, held: -1 } })).toMatchObject({
      ok: false,
    });
  });
});
