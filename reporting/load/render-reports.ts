import { EVENT_DURATION } from "../../load/index.ts";
import type { Ledger } from "../accepted/ledger.ts";
import type { JunitSuite } from "../index.ts";
import { unansweredRejections } from "./answered-failures.ts";
import { renderText } from "./console-summary.ts";
import { droppedCause } from "./dropped-cause.ts";
import type { GeneratorInput } from "./generator-limit.ts";
import { judgeGenerator, k6Vus } from "./generator-limit.ts";
import { renderJunit } from "./junit.ts";
import type { ReportContext } from "./report-context.ts";
import type { ReportFacts } from "./report-facts.ts";
import { reportFacts } from "./report-facts.ts";
import type { BaselineVerdict, LoadResult, RunEnding } from "./run-result.ts";
import { describeResult, FINISHED, loadResult } from "./run-result.ts";
import type { SummaryData, ThresholdResult } from "./summary-data.ts";
import { thresholdResults } from "./summary-data.ts";
import type { ReportInput } from "./summary-markdown.ts";
import { renderMarkdown } from "./summary-markdown.ts";
import { slidingExpiryVerdict } from "./verdict.ts";

export interface RenderedReports {
  readonly input: ReportInput;
  /** k6's summary data with the harness's context and verdict added under `harness`. */
  readonly summaryJson: string;
  readonly junit: string;
  readonly markdown: string;
  readonly text: string;
  /** The run's verdict, which every output above states. */
  readonly result: LoadResult;
}

/** What a baseline comparison adds to a run's reports: its verdict, its JUnit suite and its summary.md section. */
export interface ReportAddition {
  readonly baseline: BaselineVerdict;
  readonly junitSuites: readonly JunitSuite[];
  readonly markdown: string;
}

/** What the generator judgement reads of a whole run: the load it was asked for and what k6 measured. */
export function generatorInput(
  facts: ReportFacts,
  context: ReportContext,
  thresholds: readonly ThresholdResult[],
  vus?: GeneratorInput["vus"],
): GeneratorInput {
  return {
    vus,
    usage: context.generator,
    droppedIterations: facts.droppedIterations,
    plannedIterations: context.plannedIterations,
    completedIterations: facts.iterations,
    peakRate: context.arrivals?.peakRate,
    maxVus: context.arrivals?.maxVus,
    meanLatencyMs: new Map(facts.eventLatency).get("avg"),
    latencyKept: latencyObjectives(thresholds),
  };
}

/** Whether every threshold on event latency passed, and what they observed; undefined when there is none. */
export function latencyObjectives(
  thresholds: readonly ThresholdResult[],
): { kept: boolean; observed: string } | undefined {
  const latency = thresholds.filter((t) => t.metric.startsWith(EVENT_DURATION.slice(0, -1)));
  if (latency.length === 0) return undefined;
  return {
    kept: latency.every((t) => t.ok),
    observed: latency.map((t) => `${t.expression}: ${t.observed ?? "not observed"}`).join(", "),
  };
}

/**
 * Renders every report from k6's end-of-test data and how the run ended; pure, so it runs in k6's handleSummary and
 * in unit tests.
 */
export function renderReports(
  data: SummaryData,
  context: ReportContext,
  ending: RunEnding = FINISHED,
  addition?: ReportAddition,
  ledger?: Ledger,
): RenderedReports {
  const facts = reportFacts(data, context.warmUpSeconds);
  const thresholds = thresholdResults(data);
  const verdict = slidingExpiryVerdict(facts, context);
  const generator = judgeGenerator(generatorInput(facts, context, thresholds, k6Vus(data)));
  const runFacts = {
    eventsAccepted: facts.eventsAccepted,
    eventsRejected: facts.eventsRejected,
    unansweredRejections: unansweredRejections(data),
    slidingExercised: verdict.level === "held" || verdict.level === "broken",
    generator,
  };
  const input: ReportInput = {
    context,
    facts,
    thresholds,
    verdict,
    generator,
    result: loadResult(thresholds, ending, ledger, runFacts, addition?.baseline),
  };
  const dropped = droppedCause(context, facts.droppedIterations);
  const summary = {
    ...data,
    harness: {
      context,
      result: { outcome: input.result.outcome, reason: input.result.reason },
      verdictLine: describeResult(input.result),
      verdict: input.verdict,
      generator,
      failedThresholds: input.result.failedThresholds,
      waivedThresholds: input.result.waivedThresholds,
      accepted: input.result.accepted,
      ...(ledger === undefined ? {} : { acceptedFile: ledger.file }),
      regressed: input.result.regressed,
      baseline: input.result.baseline?.line ?? null,
      ...(dropped === undefined ? {} : { droppedCause: dropped }),
    },
  };
  return {
    input,
    summaryJson: `${JSON.stringify(summary, null, 2)}\n`,
    junit: renderJunit(input, addition?.junitSuites),
    markdown:
      addition === undefined ? renderMarkdown(input) : `${renderMarkdown(input)}\n${addition.markdown}`,
    text: renderText(input),
    result: input.result,
  };
}
