import type { StepOutcome } from "../../load/index.ts";
import {
  EVENT_DURATION,
  EXPIRY,
  judgedMetric,
  judgesWholeStep,
  METRIC,
  objectiveName,
} from "../../load/index.ts";
import { applyToThresholds } from "../accepted/apply-to-thresholds.ts";
import type { Ledger } from "../accepted/ledger.ts";
import { brokenByAnswers, unansweredRejections } from "./answered-failures.ts";
import type { GeneratorUsage, GeneratorVerdict } from "./generator-limit.ts";
import { judgeGenerator, k6Vus } from "./generator-limit.ts";
import { latencyObjectives } from "./render-reports.ts";
import type { RunEnding } from "./run-result.ts";
import type { SummaryData, ThresholdResult } from "./summary-data.ts";
import { count, metricValue, thresholdResults } from "./summary-data.ts";

/** What one step of a capacity search was asked to do. */
export interface CapacityStepPlan {
  /** 1 for the first step. */
  readonly index: number;
  readonly rate: number;
  /** How the search chose its rate: up, down, bisecting, or a retry of a step the generator limited. */
  readonly phase: "up" | "down" | "bisect" | "retry";
  readonly warmUpSeconds: number;
  readonly judgedSeconds: number;
  readonly plannedIterations: number;
  readonly maxVus: number;
  /** Where its k6 output is, relative to the report folder. */
  readonly dir: string;
}

/** A step's verdict: held, broken or limited by the generator, or no verdict (k6 stopped, or failed). */
export type CapacityStepOutcome = StepOutcome | "aborted" | "no-verdict";

/** One step of a capacity search, judged on its judged stretch. */
export interface CapacityStepResult extends CapacityStepPlan {
  readonly outcome: CapacityStepOutcome;
  /** Why a step has no verdict. */
  readonly reason: string | undefined;
  /** The objectives it broke (the ledger's waived ones left out), failures first. */
  readonly brokenBy: readonly ThresholdResult[];
  /** Of those, the ones that prove a contract violation (an expiry rule, a redirect). */
  readonly violations: readonly ThresholdResult[];
  /** Events sent in the judged stretch, accepted and not. */
  readonly events: number;
  readonly accepted: number;
  readonly acceptedPerSecond: number;
  readonly failureRate: number;
  /** Event latency over the judged stretch, ms. */
  readonly latency: {
    readonly p50: number | undefined;
    readonly p95: number | undefined;
    readonly p99: number | undefined;
    readonly avg: number | undefined;
  };
  readonly dropped: number;
  readonly generator: GeneratorVerdict;
  /** k6's CPU over the judged stretch, as a share of the CPUs it may run on (the busiest instance's). */
  readonly k6CpuShare: number | undefined;
  /** Sliding-expiry counts over the whole step. */
  readonly expiry: {
    readonly unexpected: number;
    readonly outlived: number;
    readonly extended: number;
  };
}

const JUDGED_LATENCY = judgedMetric(EVENT_DURATION);
const JUDGED_FAILED = judgedMetric(METRIC.eventsFailed);
const JUDGED_DROPPED = judgedMetric("dropped_iterations");

/**
 * Judges one step from k6's summary of it: broken when an objective failed (one the ledger waives does not break it),
 * held when none did, and neither when the generator, not the target, limited it: such a step never counts as held,
 * nor as the target's capacity. Failures the target answered beyond the failure objective break the step even then.
 */
export function judgeCapacityStep(
  plan: CapacityStepPlan,
  data: SummaryData | undefined,
  ending: RunEnding,
  usage: GeneratorUsage | undefined,
  ledger: Ledger | undefined,
): CapacityStepResult {
  const accepted = data === undefined ? 0 : (metricValue(data, JUDGED_FAILED, "fails") ?? 0);
  const failed = data === undefined ? 0 : (metricValue(data, JUDGED_FAILED, "passes") ?? 0);
  const latency = (stat: string) =>
    data === undefined ? undefined : metricValue(data, JUDGED_LATENCY, stat);
  // Named as the reports and the ledger name them: the judged stretch's tag is k6's, not the user's.
  const thresholds =
    data === undefined ? [] : thresholdResults(data).map((t) => ({ ...t, metric: objectiveName(t.metric) }));
  const broken = ending.kind === "finished" ? applyToThresholds(thresholds, ledger, true).failed : [];
  const dropped = data === undefined ? 0 : count(data, JUDGED_DROPPED);
  const generator = judgeGenerator({
    usage,
    droppedIterations: dropped,
    plannedIterations: plan.plannedIterations,
    completedIterations: accepted + failed,
    peakRate: plan.rate,
    maxVus: plan.maxVus,
    meanLatencyMs: latency("avg"),
    latencyKept: latencyObjectives(thresholds),
    vus: data === undefined ? undefined : k6Vus(data),
    vusAdjustable: false,
  });
  const answered =
    data === undefined
      ? undefined
      : brokenByAnswers(broken, { accepted, rejected: failed, unanswered: unansweredRejections(data) });
  const outcome: CapacityStepOutcome =
    ending.kind === "aborted"
      ? "aborted"
      : ending.kind === "undecided" || data === undefined
        ? "no-verdict"
        : generator.limited && answered === undefined
          ? "generator"
          : broken.length > 0 || accepted === 0
            ? "broken"
            : "held";
  const events = accepted + failed;
  return {
    ...plan,
    outcome,
    reason:
      ending.kind !== "finished"
        ? ending.reason
        : data === undefined
          ? "k6 wrote no end-of-test summary"
          : outcome === "broken" && broken.length === 0
            ? "no event was accepted"
            : undefined,
    brokenBy: broken,
    violations: broken.filter((t) => judgesWholeStep(t.metric)),
    events,
    accepted,
    acceptedPerSecond: plan.judgedSeconds > 0 ? accepted / plan.judgedSeconds : 0,
    failureRate: events === 0 ? 0 : failed / events,
    latency: { p50: latency("med"), p95: latency("p(95)"), p99: latency("p(99)"), avg: latency("avg") },
    dropped,
    generator,
    k6CpuShare: usage?.cpu?.meanShare,
    expiry: {
      unexpected: data === undefined ? 0 : count(data, EXPIRY.unexpected),
      outlived: data === undefined ? 0 : count(data, EXPIRY.outlived),
      extended: data === undefined ? 0 : count(data, EXPIRY.extended),
    },
  };
}
