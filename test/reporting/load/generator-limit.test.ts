import { describe, expect, it } from "vitest";
import { EVENT_DURATION, EXPIRY, METRIC } from "../../../load/index.ts";
import type { GeneratorInput } from "../../../reporting/load/generator-limit.ts";
import { judgeGenerator, k6Vus } from "../../../reporting/load/generator-limit.ts";
import type { ReportContext, SummaryData } from "../../../reporting/load/index.ts";
import { renderReports } from "../../../reporting/load/index.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

/** A steady run at 800/s with 10 VUs at most, 12,000 iterations planned, answered in 1 ms on average. */
const steady: GeneratorInput = {
  usage: {
    cpu: { cpus: 2, meanShare: 0.4, busiestShare: 0.5, seconds: 15, processes: 1 },
    insufficientVus: 0,
  },
  droppedIterations: 0,
  plannedIterations: 12_000,
  completedIterations: 12_000,
  peakRate: 800,
  maxVus: 10,
  meanLatencyMs: 1,
  latencyKept: { kept: true, observed: "p(95)<500: p(95)=6ms" },
};
/** The same target past its objective: p95 over 500 ms. */
const broken = { kept: false, observed: "p(95)<500: p(95)=812ms" };

describe("judgeGenerator", () => {
  it("lets a run that kept up pass, and says what it measured", () => {
    const verdict = judgeGenerator(steady);
    expect(verdict.limited).toBe(false);
    expect(verdict.signals).toEqual([]);
    expect(verdict.measured).toBe(
      "k6 used 50 % of its 2 CPUs over its busiest 5 s and 40 % over the 15 s it ran; the target's answers kept about 0.8 of its 10 VUs busy (800/s sent × 1 ms, Little's law); 0 iterations dropped of 12000 planned.",
    );
  });

  it("calls k6 at 90 % of its CPUs over its busiest stretch the limit, and no less", () => {
    const at = (busiestShare: number) =>
      judgeGenerator({
        ...steady,
        usage: {
          cpu: { cpus: 2, meanShare: 0.5, busiestShare, seconds: 15, processes: 1 },
          insufficientVus: 0,
        },
      });
    expect(at(0.89).limited).toBe(false);
    const limited = at(0.96);
    expect(limited.limited).toBe(true);
    expect(limited.signals.map((s) => s.kind)).toEqual(["cpu"]);
    expect(limited.signals[0]?.short).toBe("k6 at 96 % of its 2 CPUs");
  });

  it("calls iterations dropped while the target kept few VUs busy k6's own doing", () => {
    const verdict = judgeGenerator({ ...steady, droppedIterations: 1331 });
    expect(verdict.limited).toBe(true);
    expect(verdict.signals.map((s) => s.kind)).toEqual(["dropped"]);
    expect(verdict.signals[0]?.detail).toContain(
      "k6 dropped 1331 iterations (its guard allows 120) while the target's answers kept about 0.8 of its 10 VUs busy",
    );
  });

  it("leaves iterations dropped because the target slowed past its objective and held the VUs to the target", () => {
    // 800/s × 20 ms = 16 events in flight: every one of the 10 VUs waited on the target.
    const slow = judgeGenerator({
      ...steady,
      droppedIterations: 5000,
      meanLatencyMs: 20,
      latencyKept: broken,
    });
    expect(slow.limited).toBe(false);
    // Half of the VUs busy is enough for the target to own them.
    const half = { ...steady, droppedIterations: 5000, latencyKept: broken };
    expect(judgeGenerator({ ...half, meanLatencyMs: 6.25 }).limited).toBe(false);
    expect(judgeGenerator({ ...half, meanLatencyMs: 6.2 }).signals[0]?.remedy).toBe("instances");
  });

  it("calls a VU pool too small for the rate, at a latency the target kept within its objective, the generator's", () => {
    // 800/s × 20 ms = 16 VUs needed, 10 in the pool, and p95 well under 500 ms: more VUs would have held the rate.
    const small = judgeGenerator({ ...steady, droppedIterations: 5000, meanLatencyMs: 20 });
    expect(small.limited).toBe(true);
    expect(small.signals.map((s) => [s.kind, s.remedy])).toEqual([["dropped", "vus"]]);
    expect(small.signals[0]?.detail).toContain(
      "while the target kept its latency objectives (p(95)<500: p(95)=6ms) and the target's answers kept about 16 of its 10 VUs busy",
    );
    // Without a latency objective there is nothing to say the target kept up.
    expect(
      judgeGenerator({ ...steady, droppedIterations: 5000, meanLatencyMs: 20, latencyKept: undefined })
        .limited,
    ).toBe(false);
  });

  it("counts the events in flight at the rate k6 sent, not the rate it was asked for and failed to send", () => {
    // Asked for 30,000/s, k6 sent 2,000/s answered in 60 ms: 120 of its 2,000 VUs busy, where the rate asked for
    // would make it 1,800.
    const verdict = judgeGenerator({
      ...steady,
      plannedIterations: 90_000,
      completedIterations: 6000,
      droppedIterations: 84_000,
      peakRate: 30_000,
      maxVus: 2000,
      meanLatencyMs: 60,
      latencyKept: broken,
    });
    expect(verdict.signals.map((s) => [s.kind, s.remedy])).toEqual([["dropped", "instances"]]);
    expect(verdict.measured).toContain(
      "the target's answers kept about 120 of its 2000 VUs busy (2000/s sent × 60 ms",
    );
  });

  it("leaves drops to the target when every VU k6 had started was busy, as the target slowed past its objective", () => {
    // Recorded: 210/s against a target that serves 200/s. Answers grew to 492 ms on average (p95 635 ms) over the
    // step, so the mean alone (210/s × 492 ms = 103 of 210 VUs) reads as VUs to spare; but 129 of the 130 VUs k6 had
    // started were busy at once: the target held them.
    const overCapacity = {
      ...steady,
      plannedIterations: 2100,
      completedIterations: 2075,
      droppedIterations: 26,
      peakRate: 210,
      maxVus: 210,
      meanLatencyMs: 492,
      latencyKept: { kept: false, observed: "p(95)<500: p(95)=635ms" },
    };
    expect(judgeGenerator({ ...overCapacity, vus: { busiest: 129, started: 130 } }).limited).toBe(false);
    // The same drops with most started VUs idle were k6's own.
    const idle = judgeGenerator({ ...overCapacity, vus: { busiest: 40, started: 130 } });
    expect(idle.signals.map((s) => [s.kind, s.remedy])).toEqual([["dropped", "instances"]]);
    expect(idle.signals[0]?.detail).toContain("at most 40 of the 130 VUs k6 had started were busy at once");
    // A target that kept its objectives while holding every VU: the pool was too small.
    const kept = judgeGenerator({
      ...overCapacity,
      latencyKept: { kept: true, observed: "p(95)<1000: p(95)=635ms" },
      vus: { busiest: 130, started: 130 },
    });
    expect(kept.signals.map((s) => [s.kind, s.remedy])).toEqual([["dropped", "vus"]]);
    // Where the harness sized the pool itself (a capacity step), only more k6 processes can add to it.
    const sized = judgeGenerator({
      ...overCapacity,
      latencyKept: { kept: true, observed: "p(95)<1000: p(95)=635ms" },
      vus: { busiest: 130, started: 130 },
      vusAdjustable: false,
    });
    expect(sized.signals.map((s) => [s.kind, s.remedy])).toEqual([["dropped", "instances"]]);
  });

  it("calls what broke while other work kept k6 from its CPUs the generator's, below its own CPU limit", () => {
    // The recorded case: k6 at 12 % of its one CPU, its threads ready to run for 120 % of it, p95 broken.
    const starvedUsage = (readyShare: number, ranShare = 0.12) => ({
      cpu: {
        cpus: 1,
        meanShare: 0.09,
        busiestShare: ranShare,
        seconds: 11.6,
        processes: 1,
        ready: { readyShare, ranShare, waitPerSliceMs: 1.1 },
      },
      insufficientVus: 0,
    });
    const held = { busiest: 10, started: 10 };
    const starved = judgeGenerator({
      ...steady,
      usage: starvedUsage(1.2),
      meanLatencyMs: 11.5,
      droppedIterations: 748,
      latencyKept: broken,
      vus: held,
    });
    expect(starved.limited).toBe(true);
    expect(starved.signals.map((s) => [s.kind, s.remedy])).toEqual([["starved", "alone"]]);
    expect(starved.signals[0]?.short).toBe("k6 kept from its 1 CPU by other work");
    expect(starved.signals[0]?.detail).toContain(
      "k6's threads were ready to run for 120 % of the CPU time its 1 CPU offered over their most ready 5 s but ran 12 %, waiting 1.1 ms for a CPU each time they got one",
    );
    expect(starved.measured).toContain(
      "its threads ready to run for at most 120 % of the CPU time its 1 CPU offered (running 12 %, waiting 1.1 ms for a CPU each time)",
    );
    // A broken objective alone, with nothing dropped, is enough: the latency measured includes k6's wait.
    const slow = { ...steady, usage: starvedUsage(1.2), latencyKept: broken };
    expect(judgeGenerator(slow).limited).toBe(true);
    // Ready for less than 90 % of its CPU: what it asked for, it got; what broke stays the target's.
    expect(judgeGenerator({ ...slow, usage: starvedUsage(0.89) }).limited).toBe(false);
    expect(judgeGenerator({ ...slow, usage: starvedUsage(0.9) }).limited).toBe(true);
    // At its CPU limit it is the CPU signal that speaks, not this one.
    expect(judgeGenerator({ ...slow, usage: starvedUsage(1.2, 0.95) }).signals.map((s) => s.kind)).toEqual([
      "cpu",
    ]);
  });

  it("lets a run that kept everything while k6 was kept from its CPUs pass: the target held even so", () => {
    const verdict = judgeGenerator({
      ...steady,
      usage: {
        cpu: {
          cpus: 2,
          meanShare: 0.4,
          busiestShare: 0.45,
          seconds: 15,
          processes: 1,
          ready: { readyShare: 1.5, ranShare: 0.45, waitPerSliceMs: 8 },
        },
        insufficientVus: 0,
      },
    });
    expect(verdict.limited).toBe(false);
  });

  it("reads k6's busiest and started VUs from its end-of-test data, and nothing when either is missing", () => {
    const data = (metrics: SummaryData["metrics"]): SummaryData => ({ metrics }) as SummaryData;
    const gauge = (max: number) => ({
      type: "gauge" as const,
      contains: "default",
      values: { value: max, min: 1, max },
    });
    expect(k6Vus(data({ vus: gauge(129), vus_max: gauge(130) }))).toEqual({ busiest: 129, started: 130 });
    expect(k6Vus(data({ vus: gauge(129) }))).toBeUndefined();
    expect(k6Vus(data({}))).toBeUndefined();
  });

  it("allows the guard's 1 % of dropped iterations", () => {
    expect(judgeGenerator({ ...steady, droppedIterations: 120 }).limited).toBe(false);
    expect(judgeGenerator({ ...steady, droppedIterations: 121 }).limited).toBe(true);
  });

  it("reads k6's warning that VUs ran out as its own limit only when the target did not hold them", () => {
    const warned = { cpu: steady.usage?.cpu, insufficientVus: 3 };
    expect(judgeGenerator({ ...steady, usage: warned }).signals.map((s) => s.kind)).toEqual(["vus"]);
    expect(judgeGenerator({ ...steady, usage: warned, meanLatencyMs: 50, latencyKept: broken }).limited).toBe(
      false,
    );
  });

  it("judges a closed model, which drops nothing, by k6's CPU alone, and says when the CPU was not measured", () => {
    const closed = { ...steady, plannedIterations: undefined, peakRate: undefined, maxVus: undefined };
    expect(judgeGenerator(closed).limited).toBe(false);
    const unmeasured = judgeGenerator({ ...closed, usage: undefined });
    expect(unmeasured.limited).toBe(false);
    expect(unmeasured.measured).toBe(
      "k6's CPU was not measured (k6 ran elsewhere, or this system has no /proc).",
    );
  });
});

function summary(dropped: number, unexpected = 0): SummaryData {
  return {
    state: { testRunDurationMs: 17_000 },
    metrics: {
      [METRIC.eventsFailed]: {
        type: "rate",
        contains: "default",
        values: { rate: 0, passes: 0, fails: 10_669 },
        thresholds: { "rate<0.01": { ok: true } },
      },
      [EVENT_DURATION]: {
        type: "trend",
        contains: "time",
        values: { avg: 1, med: 0.5, "p(90)": 2, "p(95)": 6, "p(99)": 18, max: 158 },
        thresholds: { "p(95)<500": { ok: true } },
      },
      dropped_iterations: {
        type: "counter",
        contains: "default",
        values: { count: dropped, rate: dropped / 17 },
        thresholds: { "count<=120": { ok: dropped <= 120 } },
      },
      [EXPIRY.unexpected]: {
        type: "counter",
        contains: "default",
        values: { count: unexpected, rate: 0 },
        thresholds: { "count==0": { ok: unexpected === 0 } },
      },
    },
  };
}

/** The context of `load sustained --rate 800 --duration 15s` on a machine where k6 fell behind. */
const context: ReportContext = {
  ...sustainedReportContext,
  rate: 800,
  durationSeconds: 15,
  plannedIterations: 12_000,
  arrivals: { peakRate: 800, maxVus: 10 },
  generator: {
    cpu: { cpus: 2, meanShare: 0.3, busiestShare: 0.4, seconds: 15, processes: 1 },
    insufficientVus: 0,
  },
};

describe("a run the generator limited", () => {
  it("has no verdict: its dropped iterations are k6's, and every report says so", () => {
    const reports = renderReports(summary(1331), context);
    expect(reports.result.outcome).toBe("undecided");
    expect(reports.result.reason).toBe(
      "the generator, not the API, limited this run (1331 iterations dropped with VUs to spare): use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator)",
    );
    expect(reports.markdown).toContain("## Load generator: LIMITED");
    expect(reports.markdown).toContain("**The generator, not the API, limited this run: use --instances N");
    expect(reports.text).toContain("k6       LIMITED the run: k6 used 40 % of its 2 CPUs");
    const generator = junitCases(reports.junit).find((c) => c.name === "load generator");
    expect(generator?.error?.type).toBe("generator");
    const json = JSON.parse(reports.summaryJson) as { harness: { generator: { limited: boolean } } };
    expect(json.harness.generator.limited).toBe(true);
  });

  it("still fails on a contract violation, which no generator explains", () => {
    const reports = renderReports(summary(1331, 2), context);
    expect(reports.result.outcome).toBe("failed");
    // k6's limit is said beside the failure, never as what limited the run.
    expect(reports.result.reason).toContain(
      "k6 was at its own limit too (1331 iterations dropped with VUs to spare)",
    );
    expect(reports.result.reason).not.toContain("not the API");
    expect(reports.markdown).toContain("**k6 was at its own limit too: use --instances N");
  });

  it("passes as before when k6 kept up", () => {
    const reports = renderReports(summary(12), context);
    expect(reports.result.outcome).toBe("passed");
    expect(reports.markdown).toContain("## Load generator: kept up");
  });
});
