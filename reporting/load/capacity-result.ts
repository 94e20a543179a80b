import type { Resolution, SearchStep, SearchStop } from "../../load/index.ts";
import { bracketOf, objectiveName } from "../../load/index.ts";
import { applyToThresholds } from "../accepted/apply-to-thresholds.ts";
import type { EntryOutcome } from "../accepted/entry-outcome.ts";
import { unobserved } from "../accepted/entry-outcome.ts";
import { isBaselineGateId } from "../accepted/gate-ids.ts";
import type { Ledger } from "../accepted/ledger.ts";
import type { CapacityStepResult } from "./capacity-step.ts";
import { generatorClause } from "./generator-limit.ts";
import type { BaselineVerdict, LoadResult } from "./run-result.ts";
import type { ThresholdResult } from "./summary-data.ts";

/**
 * Why a capacity search ended: the search's own reasons (capacity-search.ts), its time bound, an interruption, or a
 * step k6 could not finish.
 */
export type CapacityStop = SearchStop | "time" | "aborted" | "no-verdict";

/** The figure a capacity search found. */
export interface CapacityFigure {
  /**
   * `bracketed`: a rate held and a higher one broke, so the capacity lies between them; `at-least`: a rate held and
   * no higher one broke (the rate bound, the generator, time or steps ended the search); `none`: no rate held.
   */
  readonly kind: "bracketed" | "at-least" | "none";
  /** The highest rate held, events a second. */
  readonly held: number | undefined;
  /** The lowest rate broken, and the step that broke it. */
  readonly broken: CapacityStepResult | undefined;
  /** The lowest rate the generator, not the target, limited. */
  readonly limited: CapacityStepResult | undefined;
  /** How far apart the highest rate held and the lowest broken are, events a second (bracketed only). */
  readonly resolution: number | undefined;
  /** The resolution asked for. */
  readonly asked: Resolution;
  readonly stop: CapacityStop;
}

const rate = (value: number) => `${Math.round(value * 100) / 100}`;

/** What the search reads of the steps so far: each rate's latest verdict, a retry's replacing the first attempt's. */
export function searchedSteps(steps: readonly CapacityStepResult[]): SearchStep[] {
  const latest = new Map<number, SearchStep["outcome"]>();
  for (const step of steps) {
    if (step.outcome === "held" || step.outcome === "broken" || step.outcome === "generator") {
      latest.set(step.rate, step.outcome);
    }
  }
  return [...latest].map(([rate, outcome]) => ({ rate, outcome }));
}

/** What the steps found. */
export function capacityFigure(
  steps: readonly CapacityStepResult[],
  stop: CapacityStop,
  asked: Resolution,
): CapacityFigure {
  const { held, broken, limited } = bracketOf(searchedSteps(steps));
  // The last attempt at that rate: a retry's verdict replaces the first attempt's.
  const stepAt = (value: number | undefined, outcome: string) =>
    value === undefined ? undefined : steps.findLast((s) => s.rate === value && s.outcome === outcome);
  return {
    kind: held === undefined ? "none" : broken === undefined ? "at-least" : "bracketed",
    held,
    broken: stepAt(broken, "broken"),
    limited: stepAt(limited, "generator"),
    resolution: held === undefined || broken === undefined ? undefined : broken - held,
    asked,
    stop,
  };
}

/** The objectives a step broke, in a few words: `http_req_duration{endpoint:events} p(95)<500 (p(95)=612ms)`. */
export function brokenByText(step: CapacityStepResult): string {
  if (step.brokenBy.length === 0) return step.reason ?? "no objective named";
  return step.brokenBy
    .map(
      (t) =>
        `${objectiveName(t.metric)} ${t.expression}${t.observed === undefined ? "" : ` (${t.observed})`}`,
    )
    .join(", ");
}

const STOP_WORDS: Readonly<Record<CapacityStop, string>> = {
  bracketed: "the highest rate held and the lowest broken came within the resolution",
  "max-rate": "every rate up to the rate bound (--max-rate) held",
  "min-rate": "even the lowest rate, 1 event/s, broke",
  generator: "the generator, not the API, could not drive a higher rate",
  steps: "the search used all its steps (--max-steps)",
  time: "the search's time bound (--duration) left no room for another step",
  aborted: "the run was stopped",
  "no-verdict": "k6 could not finish a step",
};

/** Why the search ended, in words. */
export function describeStop(stop: CapacityStop): string {
  return STOP_WORDS[stop];
}

/**
 * The figure in one clause for the verdict line: `capacity 950 events/s (990/s broke http_req_duration{…} p(95)<500
 * (p(95)=612ms))`, `capacity at least 700 events/s: the generator, not the API, limited the search at 740/s (…)`.
 */
export function capacityClause(figure: CapacityFigure): string {
  const { held, broken, limited } = figure;
  if (held === undefined) {
    if (limited !== undefined && (broken === undefined || limited.rate <= broken.rate)) {
      return generatorClause(limited.generator, `search from its first step at ${rate(limited.rate)}/s`);
    }
    if (broken !== undefined) {
      return `no rate held: every rate tried broke its objectives, down to ${rate(broken.rate)}/s (${brokenByText(broken)})`;
    }
    return `no rate held before ${describeStop(figure.stop)}`;
  }
  if (broken !== undefined) {
    return `capacity ${rate(held)} events/s (${rate(broken.rate)}/s broke ${brokenByText(broken)})`;
  }
  if (limited !== undefined && figure.stop === "generator") {
    return `capacity at least ${rate(held)} events/s: ${generatorClause(limited.generator, `search at ${rate(limited.rate)}/s`)}`;
  }
  return `capacity at least ${rate(held)} events/s: ${describeStop(figure.stop)}`;
}

/** Every step's contract violations, once each metric and expression, with the lowest rate it showed at. */
export function violationsOf(
  steps: readonly CapacityStepResult[],
): { threshold: ThresholdResult; rate: number }[] {
  const seen = new Map<string, { threshold: ThresholdResult; rate: number }>();
  for (const step of [...steps].sort((a, b) => a.rate - b.rate)) {
    for (const threshold of step.violations) {
      const key = `${threshold.metric} ${threshold.expression}`;
      if (!seen.has(key)) seen.set(key, { threshold, rate: step.rate });
    }
  }
  return [...seen.values()];
}

/**
 * The capacity run's one verdict. It passes when a rate held and no step proved a contract violation; it fails when
 * even the lowest rate broke its objectives, a step proved a violation, or the baseline comparison fails it; it has
 * no verdict when the generator limited the search before any rate held, or time ran out first, or k6 could not
 * finish a step; it is aborted when stopped.
 */
export function capacityLoadResult(
  figure: CapacityFigure,
  steps: readonly CapacityStepResult[],
  contractThresholds: readonly ThresholdResult[],
  ledger: Ledger | undefined,
  baseline?: BaselineVerdict,
): LoadResult {
  const violations = violationsOf(steps);
  const accepted: EntryOutcome[] = [
    ...applyToThresholds(contractThresholds, ledger, true).outcomes,
    ...(baseline?.accepted ??
      (ledger?.entries ?? [])
        .filter((entry) => isBaselineGateId(entry.id))
        .map((entry) => unobserved(entry, "no baseline was compared"))),
  ];
  const clause = capacityClause(figure);
  const base = {
    failedThresholds: violations.map((v) => v.threshold),
    waivedThresholds: [],
    accepted,
    regressed: baseline?.regressed ?? [],
    baseline: baseline === undefined ? undefined : { line: baseline.line, fails: baseline.fails },
  };
  const stopped = steps.find((s) => s.outcome === "aborted" || s.outcome === "no-verdict");
  if (stopped !== undefined) {
    const reason = `step ${stopped.index} at ${rate(stopped.rate)}/s: ${stopped.reason ?? "no verdict"}`;
    return {
      outcome: stopped.outcome === "aborted" ? "aborted" : "undecided",
      reason,
      capacity: clause,
      ...base,
    };
  }
  if (violations.length > 0) {
    const list = violations
      .map((v) => `${v.threshold.metric} ${v.threshold.expression} at ${rate(v.rate)}/s`)
      .join(", ");
    return {
      outcome: "failed",
      reason: undefined,
      capacity: `${clause}; a contract violation under load: ${list}`,
      ...base,
    };
  }
  if (figure.kind === "none") {
    const failed = figure.broken !== undefined && figure.stop !== "generator";
    return failed
      ? { outcome: "failed", reason: undefined, capacity: clause, ...base }
      : { outcome: "undecided", reason: clause, capacity: clause, ...base };
  }
  const fails = base.regressed.length > 0 || baseline?.fails === true;
  return { outcome: fails ? "failed" : "passed", reason: undefined, capacity: clause, ...base };
}
