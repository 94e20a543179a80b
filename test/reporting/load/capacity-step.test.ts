import { describe, expect, it } from "vitest";
import { EXPIRY } from "../../../load/index.ts";
import type { Ledger } from "../../../reporting/accepted/index.ts";
import type { CapacityStepPlan, SummaryData } from "../../../reporting/load/index.ts";
import { FINISHED, judgeCapacityStep } from "../../../reporting/load/index.ts";

type Metric = SummaryData["metrics"][string];

const plan: CapacityStepPlan = {
  index: 3,
  rate: 100,
  phase: "bisect",
  warmUpSeconds: 2,
  judgedSeconds: 4,
  plannedIterations: 400,
  maxVus: 50,
  dir: "steps/3-100",
};
// The judged stretch's sub-metrics, as the capacity scenario names them.
const FAILED = "events_failed{scenario:capacity}";
const LATENCY = "http_req_duration{endpoint:events,scenario:capacity}";
const DROPPED = "dropped_iterations{scenario:capacity}";

const counter = (count: number, thresholds?: Metric["thresholds"]): Metric => ({
  type: "counter",
  contains: "default",
  values: { count },
  ...(thresholds === undefined ? {} : { thresholds }),
});

/** A step's summary: 390 events accepted and 10 not in the judged stretch, latency p(95) 40 ms. */
function summary(
  parts: { latencyOk?: boolean; accepted?: number; metrics?: Record<string, Metric> } = {},
): SummaryData {
  return {
    state: { testRunDurationMs: 6000 },
    metrics: {
      [FAILED]: {
        type: "rate",
        contains: "default",
        values: { rate: 10 / ((parts.accepted ?? 390) + 10), passes: 10, fails: parts.accepted ?? 390 },
      },
      [LATENCY]: {
        type: "trend",
        contains: "time",
        values: { avg: 20, med: 15, "p(95)": 40, "p(99)": 60 },
        thresholds: { "p(95)<30": { ok: parts.latencyOk ?? true } },
      },
      [DROPPED]: counter(0),
      [EXPIRY.unexpected]: counter(0, { "count==0": { ok: true } }),
      [EXPIRY.outlived]: counter(0),
      [EXPIRY.extended]: counter(12),
      ...parts.metrics,
    },
  };
}

const usage = {
  cpu: { cpus: 2, meanShare: 0.31, busiestShare: 0.4, seconds: 6, processes: 1 },
  insufficientVus: 0,
};

describe("judgeCapacityStep", () => {
  it("holds a step whose objectives held, and reads its judged stretch", () => {
    const step = judgeCapacityStep(plan, summary(), FINISHED, usage, undefined);
    expect(step).toMatchObject({
      ...plan,
      outcome: "held",
      reason: undefined,
      brokenBy: [],
      violations: [],
      events: 400,
      accepted: 390,
      acceptedPerSecond: 97.5,
      failureRate: 0.025,
      latency: { p50: 15, p95: 40, p99: 60, avg: 20 },
      dropped: 0,
      k6CpuShare: 0.31,
      expiry: { unexpected: 0, outlived: 0, extended: 12 },
    });
    expect(step.generator.limited).toBe(false);
  });

  it("breaks a step on an objective it crossed, and calls an expiry rule broken a violation", () => {
    const slow = judgeCapacityStep(plan, summary({ latencyOk: false }), FINISHED, usage, undefined);
    expect(slow.outcome).toBe("broken");
    // Named as the user gave the objective, as the reports and the ledger name it.
    expect(slow.brokenBy).toEqual([
      {
        metric: "http_req_duration{endpoint:events}",
        expression: "p(95)<30",
        ok: false,
        observed: "p(95)=40ms",
      },
    ]);
    expect(slow.violations).toEqual([]);
    const violated = judgeCapacityStep(
      plan,
      summary({ metrics: { [EXPIRY.unexpected]: counter(2, { "count==0": { ok: false } }) } }),
      FINISHED,
      usage,
      undefined,
    );
    expect(violated.outcome).toBe("broken");
    expect(violated.violations).toEqual([
      { metric: EXPIRY.unexpected, expression: "count==0", ok: false, observed: "count=2" },
    ]);
    expect(violated.expiry.unexpected).toBe(2);
  });

  it("holds a step whose crossed objective the ledger waives under the name the reports give it", () => {
    const ledger = (id: string): Ledger => ({
      file: "accepted.json",
      entries: [{ id, reason: "slow disk", expires: "2027-01-31" }],
      today: "2026-11-25",
    });
    const waived = judgeCapacityStep(
      plan,
      summary({ latencyOk: false }),
      FINISHED,
      usage,
      ledger("load.http_req_duration{endpoint:events}"),
    );
    expect(waived.outcome).toBe("held");
    expect(waived.brokenBy).toEqual([]);
    // The judged stretch's tag is k6's own: no report shows it, and an entry naming it matches no objective.
    const tagged = judgeCapacityStep(
      plan,
      summary({ latencyOk: false }),
      FINISHED,
      usage,
      ledger("load.http_req_duration{endpoint:events,scenario:capacity}"),
    );
    expect(tagged.outcome).toBe("broken");
    expect(tagged.brokenBy.map((t) => t.metric)).toEqual(["http_req_duration{endpoint:events}"]);
  });

  it("breaks a step that had no event accepted, and says so since no objective names it", () => {
    const step = judgeCapacityStep(plan, summary({ accepted: 0 }), FINISHED, usage, undefined);
    expect(step).toMatchObject({
      outcome: "broken",
      reason: "no event was accepted",
      brokenBy: [],
      accepted: 0,
    });
  });

  it("gives no held or broken to a step that was stopped, could not finish or left no summary", () => {
    const aborted = judgeCapacityStep(
      plan,
      summary({ latencyOk: false }),
      { kind: "aborted", reason: "interrupted (received SIGINT)" },
      usage,
      undefined,
    );
    expect(aborted).toMatchObject({
      outcome: "aborted",
      reason: "interrupted (received SIGINT)",
      brokenBy: [],
    });
    const failed = judgeCapacityStep(
      plan,
      summary(),
      { kind: "undecided", reason: "k6 exited 107" },
      usage,
      undefined,
    );
    expect(failed).toMatchObject({ outcome: "no-verdict", reason: "k6 exited 107" });
    const empty = judgeCapacityStep(plan, undefined, FINISHED, undefined, undefined);
    expect(empty).toMatchObject({
      outcome: "no-verdict",
      reason: "k6 wrote no end-of-test summary",
      events: 0,
      failureRate: 0,
      latency: { p50: undefined, p95: undefined, p99: undefined, avg: undefined },
      k6CpuShare: undefined,
      expiry: { unexpected: 0, outlived: 0, extended: 0 },
    });
  });

  it("never counts a step the generator limited as held or broken", () => {
    const busy = { ...usage, cpu: { ...usage.cpu, busiestShare: 0.97 } };
    const step = judgeCapacityStep(plan, summary({ latencyOk: false }), FINISHED, busy, undefined);
    expect(step.outcome).toBe("generator");
    expect(step.generator.signals.map((s) => s.kind)).toEqual(["cpu"]);
  });

  it("breaks a step the generator limited when the target answered errors beyond the failure objective", () => {
    const busy = { ...usage, cpu: { ...usage.cpu, busiestShare: 0.97 } };
    const failed = (ok: boolean): Metric => ({
      type: "rate",
      contains: "default",
      values: { rate: 60 / 400, passes: 60, fails: 340 },
      thresholds: { "rate<0.01": { ok } },
    });
    const shedding = summary({
      accepted: 340,
      metrics: { [FAILED]: failed(false), "events_rejected{status:503}": counter(60) },
    });
    const step = judgeCapacityStep(plan, shedding, FINISHED, busy, undefined);
    expect(step.outcome).toBe("broken");
    expect(step.brokenBy.map((t) => `${t.metric} ${t.expression}`)).toEqual(["events_failed rate<0.01"]);
    expect(step.generator.signals.map((s) => s.kind)).toEqual(["cpu"]);
    // Failures with no answer behind them may be k6's own lateness: the step stays the generator's.
    const timedOut = summary({
      accepted: 340,
      metrics: { [FAILED]: failed(false), "events_rejected{status:network}": counter(60) },
    });
    expect(judgeCapacityStep(plan, timedOut, FINISHED, busy, undefined).outcome).toBe("generator");
  });

  it("reads no rate from a step with no judged seconds", () => {
    const step = judgeCapacityStep({ ...plan, judgedSeconds: 0 }, summary(), FINISHED, usage, undefined);
    expect(step.acceptedPerSecond).toBe(0);
  });
});
