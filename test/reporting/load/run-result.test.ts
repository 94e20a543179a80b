import { describe, expect, it } from "vitest";
import type { Ledger, LedgerEntry } from "../../../reporting/accepted/index.ts";
import type {
  BaselineVerdict,
  GeneratorVerdict,
  LoadResult,
  ThresholdResult,
} from "../../../reporting/load/index.ts";
import {
  describeResult,
  FINISHED,
  loadResult,
  namedThresholds,
  OUTCOME_TITLE,
} from "../../../reporting/load/index.ts";
import { staleWarning, thresholdStatus } from "../../../reporting/load/run-result.ts";
import { passedResult } from "../../support/load-report-input.ts";

const threshold = (metric: string, expression: string, ok: boolean, observed?: string): ThresholdResult => ({
  metric,
  expression,
  ok,
  observed,
});
const latencyHeld = threshold("http_req_duration{endpoint:events}", "p(95)<500", true, "p(95)=120ms");
const latencyCrossed = threshold("http_req_duration{endpoint:events}", "p(95)<500", false, "p(95)=612ms");
const errorsCrossed = threshold("events_failed", "rate<0.01", false, "rate=2%");
const expiryCrossed = threshold("token_expiries{kind:unexpected}", "count==0", false, "count=3");
const accepting = { eventsAccepted: 100, eventsRejected: 0, slidingExercised: true };

const ledgerOf = (...entries: LedgerEntry[]): Ledger => ({
  file: "accepted.json",
  entries,
  today: "2026-11-25",
});
const waiveErrors: LedgerEntry = { id: "load.events_failed", reason: "known 503s", expires: "2027-01-31" };

const cpuLimited: GeneratorVerdict = {
  limited: true,
  signals: [
    {
      kind: "cpu",
      remedy: "instances",
      short: "k6 at 96 % of its 2 CPUs",
      detail: "k6 used 96 % of the 2 CPUs.",
    },
  ],
  measured: "k6 used 96 % of its 2 CPUs.",
};
const unchanged: BaselineVerdict = { regressed: [], fails: false, accepted: [], line: "baseline UNCHANGED" };
const regressedBaseline: BaselineVerdict = {
  regressed: ["events.p95"],
  fails: true,
  accepted: [],
  line: "baseline REGRESSED (events p95 +8.10 ms)",
};

describe("loadResult", () => {
  it("passes a finished run whose thresholds all held", () => {
    const result = loadResult([latencyHeld], FINISHED, undefined, accepting);
    expect(result).toMatchObject({
      outcome: "passed",
      reason: undefined,
      failedThresholds: [],
      accepted: [],
    });
    expect(describeResult(result)).toBe("PASSED: thresholds held");
  });

  it("fails a finished run on a crossed threshold and names it with what was observed", () => {
    const result = loadResult([latencyHeld, errorsCrossed], FINISHED, undefined, accepting);
    expect(result.outcome).toBe("failed");
    expect(result.failedThresholds).toEqual([errorsCrossed]);
    expect(describeResult(result)).toBe("FAILED: 1 threshold crossed: events_failed rate<0.01 (rate=2%)");
  });

  it("calls a stopped run aborted whatever its thresholds say, and still lists those it crossed", () => {
    const ending = { kind: "aborted", reason: "interrupted (received SIGINT)" } as const;
    const result = loadResult([latencyHeld, errorsCrossed], ending, undefined, accepting);
    expect(result.outcome).toBe("aborted");
    expect(result.failedThresholds).toEqual([errorsCrossed]);
    expect(describeResult(result)).toBe("ABORTED: interrupted (received SIGINT)");
  });

  it("cannot decide a finished run that left no summary", () => {
    const result = loadResult(undefined, FINISHED, undefined, accepting);
    expect(result.outcome).toBe("undecided");
    expect(describeResult(result)).toBe("COULD NOT DECIDE: k6 wrote no end-of-test summary");
  });

  it("cannot decide a run the generator limited, unless a contract violation was proven anyway", () => {
    const clause =
      "the generator, not the API, limited this run (k6 at 96 % of its 2 CPUs): use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator)";
    const slow = loadResult([latencyCrossed], FINISHED, undefined, { ...accepting, generator: cpuLimited });
    expect(slow).toMatchObject({ outcome: "undecided", reason: clause });
    const violated = loadResult([latencyCrossed, expiryCrossed], FINISHED, undefined, {
      ...accepting,
      generator: cpuLimited,
    });
    // It failed on what no generator explains: k6's limit is said beside it, not as what limited the run.
    expect(violated).toMatchObject({
      outcome: "failed",
      reason:
        "k6 was at its own limit too (k6 at 96 % of its 2 CPUs): use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator)",
    });
    const redirected = loadResult(
      [threshold("redirects{endpoint:events}", "count==0", false)],
      FINISHED,
      undefined,
      {
        ...accepting,
        generator: cpuLimited,
      },
    );
    expect(redirected.outcome).toBe("failed");
  });

  it("fails a run the generator limited when the target answered errors beyond the failure objective", () => {
    const clause =
      "the generator, not the API, limited this run (k6 at 96 % of its 2 CPUs): use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator)";
    const shedding = loadResult([latencyCrossed, errorsCrossed], FINISHED, undefined, {
      eventsAccepted: 880,
      eventsRejected: 120,
      unansweredRejections: 0,
      slidingExercised: true,
      generator: cpuLimited,
    });
    expect(shedding).toMatchObject({
      outcome: "failed",
      reason:
        "the API answered 120 of 1000 events with an error, which crosses events_failed rate<0.01 whatever the load generator did; k6 was at its own limit too (k6 at 96 % of its 2 CPUs): use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator)",
    });
    // Failures with no answer behind them (k6's requests timed out) may be k6's own lateness: no verdict.
    const timedOut = loadResult([latencyCrossed, errorsCrossed], FINISHED, undefined, {
      eventsAccepted: 880,
      eventsRejected: 120,
      unansweredRejections: 115,
      slidingExercised: true,
      generator: cpuLimited,
    });
    expect(timedOut).toMatchObject({ outcome: "undecided", reason: clause });
    // Without the breakdown by status, no failure is taken for the target's answer.
    const unknown = loadResult([errorsCrossed], FINISHED, undefined, {
      eventsAccepted: 880,
      eventsRejected: 120,
      slidingExercised: true,
      generator: cpuLimited,
    });
    expect(unknown.outcome).toBe("undecided");
    // A waived failure objective proves nothing.
    const waived = loadResult([errorsCrossed], FINISHED, ledgerOf(waiveErrors), {
      eventsAccepted: 880,
      eventsRejected: 120,
      unansweredRejections: 0,
      slidingExercised: true,
      generator: cpuLimited,
    });
    expect(waived.outcome).toBe("undecided");
  });

  it("never passes a run the target accepted nothing from", () => {
    const rejected = loadResult([latencyHeld], FINISHED, undefined, {
      ...accepting,
      eventsAccepted: 0,
      eventsRejected: 4,
    });
    expect(rejected).toMatchObject({ outcome: "failed", reason: "no event was accepted" });
    expect(describeResult(rejected)).toBe("FAILED: no event was accepted; thresholds held");
    const silent = loadResult([latencyHeld], FINISHED, undefined, { ...accepting, eventsAccepted: 0 });
    expect(silent).toMatchObject({ outcome: "undecided", reason: "no event was sent" });
  });

  it("reads a threshold the ledger waives as WAIVED, never as a pass, and passes the run", () => {
    const result = loadResult([errorsCrossed, latencyHeld], FINISHED, ledgerOf(waiveErrors), accepting);
    expect(result.outcome).toBe("passed");
    expect(result.failedThresholds).toEqual([]);
    expect(result.waivedThresholds).toEqual([errorsCrossed]);
    expect(result.ledgerFile).toBe("accepted.json");
    expect(thresholdStatus(errorsCrossed, result)).toBe("WAIVED");
    expect(thresholdStatus(latencyHeld, result)).toBe("PASS");
    expect(describeResult(result)).toBe("PASSED: thresholds held, 1 WAIVED");
  });

  it("fails the run on a baseline that regressed, with the thresholds' clause after the failing one", () => {
    const result = loadResult([latencyHeld], FINISHED, undefined, accepting, regressedBaseline);
    expect(result).toMatchObject({ outcome: "failed", regressed: ["events.p95"] });
    expect(describeResult(result)).toBe("FAILED: baseline REGRESSED (events p95 +8.10 ms); thresholds held");
    const passed = loadResult([latencyHeld], FINISHED, undefined, accepting, unchanged);
    expect(describeResult(passed)).toBe("PASSED: thresholds held; baseline UNCHANGED");
  });

  it("calls every baseline entry unobserved when no baseline was compared", () => {
    const entry: LedgerEntry = { id: "baseline.events.p95", reason: "new cache", expires: "2027-01-31" };
    const result = loadResult([latencyHeld], FINISHED, ledgerOf(entry), accepting);
    expect(result.accepted).toEqual([
      { entry, state: "unobserved", detail: "not observed: no baseline was compared" },
    ]);
    expect(describeResult(result)).toBe("PASSED: thresholds held; ledger: 1 UNOBSERVED");
  });
});

describe("namedThresholds", () => {
  it("names five crossed thresholds at most and counts the rest", () => {
    const seven = Array.from({ length: 7 }, (_, i) =>
      threshold(`m${i}`, "count==0", false, i === 0 ? "count=1" : undefined),
    );
    expect(namedThresholds(seven)).toBe(
      "m0 count==0 (count=1), m1 count==0, m2 count==0, m3 count==0, m4 count==0 and 2 more",
    );
    expect(namedThresholds(seven.slice(0, 5))).toBe(
      "m0 count==0 (count=1), m1 count==0, m2 count==0, m3 count==0, m4 count==0",
    );
    expect(namedThresholds([])).toBe("");
  });
});

describe("describeResult", () => {
  const base: LoadResult = passedResult;

  it("gives a capacity figure in place of the thresholds' clause", () => {
    expect(describeResult({ ...base, capacity: "capacity 950 events/s" })).toBe(
      "PASSED: capacity 950 events/s",
    );
    expect(
      describeResult({
        ...base,
        outcome: "failed",
        failedThresholds: [expiryCrossed],
        capacity: "capacity 10 events/s",
      }),
    ).toBe("FAILED: capacity 10 events/s");
  });

  it("writes an undecided run without a reason as its title alone", () => {
    expect(describeResult({ ...base, outcome: "undecided" })).toBe(OUTCOME_TITLE.undecided);
  });

  it("ends with the stale waivers of gates, which the quiet ledger note leaves out", () => {
    const stale = {
      entry: { id: "load.events_failed", reason: "known 503s", expires: "2027-01-31" },
      state: "stale",
      detail: "passes now: remove the entry",
      level: "MUST",
    } as const;
    const expired = {
      ...stale,
      entry: { ...stale.entry, id: "load.http_req_duration" },
      state: "expired",
    } as const;
    const result: LoadResult = { ...base, accepted: [stale, expired], ledgerFile: "ops/accepted.json" };
    expect(describeResult(result)).toBe(
      "PASSED: thresholds held; ledger: 1 EXPIRED; STALE WAIVER: load.events_failed",
    );
    expect(staleWarning(result)).toEqual([
      "STALE WAIVER: load.events_failed passes, and ops/accepted.json still waives it until 2027-01-31: remove the entry, or its next failure reads WAIVED and passes",
    ]);
    expect(staleWarning({ ...base, accepted: [stale] })[0]).toContain("and the ledger still waives it");
    expect(staleWarning(base)).toEqual([]);
  });
});
