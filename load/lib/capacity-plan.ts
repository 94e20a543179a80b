import { METRIC } from "./metric-names.ts";
import { parseExpression } from "./threshold-check.ts";

/**
 * A capacity step runs two k6 scenarios back to back at one rate: the warm-up, which is not judged (connections,
 * tokens, VUs and a target's queue settle), then the judged stretch, whose metrics carry the tag `scenario:capacity`.
 */
export const CAPACITY_WARM_UP_SCENARIO = "capacity_warm_up";
export const CAPACITY_SCENARIO = "capacity";

/** Seconds of unjudged warm-up before each step's judged stretch, unless the user says otherwise. */
export const DEFAULT_STEP_WARM_UP_SECONDS = 5;
/** The shortest judged stretch, unless the user says otherwise: a step must outlast a passing stall. */
export const DEFAULT_STEP_SECONDS = 10;
/**
 * Events beyond the highest latency percentile an objective names that a step's judged stretch holds: with 20, a
 * p95 is read from 400 events, and its rank is known to within about ±2 percentile points (binomial, 95 %).
 */
export const TAIL_EVENTS = 20;
/**
 * Failures a step's judged stretch holds at the failure-rate objective's limit: a 1 % objective is judged on 1,000
 * events, so a target failing 0.5 % breaks it by chance about 3 times in 100, and one failing 2 % holds it about 5
 * times in 1,000.
 */
export const FAILURE_EVENTS = 10;
/** At least this many events however loose the objectives. */
export const MIN_STEP_EVENTS = 100;
/**
 * VUs one k6 process pre-allocates and may use at most in a step, whatever the rate: each costs it about 250 KB and
 * its start-up, and a rate that needs more is beyond one k6 process anyway (--instances splits the step).
 */
const MAX_PRE_ALLOCATED_VUS = 1000;
const MAX_STEP_VUS = 2000;
/** A step's latency objective when it names none, for sizing its VU pool. */
const FALLBACK_LATENCY_MS = 1000;

/** The shape of one step: its rate, and how long it warms up and is judged. */
export interface CapacityStep {
  readonly rate: number;
  readonly warmUpSeconds: number;
  readonly judgedSeconds: number;
}

/** Rounds a count of events up, without counting the float noise of 20 / (1 − 0.999) as one event more. */
function wholeEvents(value: number): number {
  return Math.ceil(Number(value.toPrecision(12)));
}

/** The events a step's judged stretch holds so that its objectives' verdict is not noise (see the constants). */
export function eventsToJudge(objectives: Readonly<Record<string, readonly string[]>>): number {
  let events = MIN_STEP_EVENTS;
  for (const [metric, expressions] of Object.entries(objectives)) {
    for (const expression of expressions) {
      const parsed = parseExpression(expression);
      if (parsed === undefined) continue;
      const percentile = /^p\(([\d.]+)\)$/.exec(parsed.stat)?.[1];
      if (percentile !== undefined && Number(percentile) < 100) {
        events = Math.max(events, wholeEvents(TAIL_EVENTS / (1 - Number(percentile) / 100)));
      } else if (
        parsed.stat === "rate" &&
        metric.startsWith("events_failed") &&
        parsed.limit > 0 &&
        parsed.limit < 1
      ) {
        events = Math.max(events, wholeEvents(FAILURE_EVENTS / parsed.limit));
      }
    }
  }
  return events;
}

/** How long a step at `rate` is judged: long enough for its events, and at least `minSeconds`. */
export function judgedSecondsFor(rate: number, events: number, minSeconds: number): number {
  return Math.max(minSeconds, Math.ceil(events / rate));
}

/** The highest latency limit among the objectives on event latency (ms), or undefined when none names one. */
export function latencyLimitMs(objectives: Readonly<Record<string, readonly string[]>>): number | undefined {
  let limit: number | undefined;
  for (const [metric, expressions] of Object.entries(objectives)) {
    if (!metric.startsWith("http_req_duration")) continue;
    for (const expression of expressions) {
      const parsed = parseExpression(expression);
      if (parsed?.operator.startsWith("<")) limit = Math.max(limit ?? 0, parsed.limit);
    }
  }
  return limit;
}

/** A multiple of the instance count, so that every instance gets an equal share of the rate (k6 re-segments by maxVUs). */
function evenly(wanted: number, instances: number): number {
  return Math.ceil(wanted / instances) * instances;
}

/**
 * The VUs of a step: pre-allocated for every answer in flight at the rate while each takes the objectives' latency
 * limit (at least the run's --vus), and twice that at most, both capped per k6 process. k6 drops an iteration the
 * moment no VU is free, and a VU it starts mid-run costs it time: so while the target keeps its objectives the pool
 * never runs short, and iterations dropped then are never the pool's doing; a target slower than that has broken
 * its objectives already.
 */
export function stepVus(
  rate: number,
  vus: number,
  instances: number,
  limitMs: number | undefined,
): { readonly preAllocated: number; readonly max: number } {
  const inFlight = Math.ceil((rate * (limitMs ?? FALLBACK_LATENCY_MS)) / 1000);
  const preAllocated = Math.max(vus, instances, Math.min(MAX_PRE_ALLOCATED_VUS * instances, inFlight));
  const max = evenly(Math.max(preAllocated, Math.min(MAX_STEP_VUS * instances, preAllocated * 2)), instances);
  return { preAllocated, max };
}

/** The tag k6 gives every sample of a step's judged stretch. */
export const JUDGED_TAG = `scenario:${CAPACITY_SCENARIO}`;

/**
 * Whether a threshold's metric proves a contract violation (an expiry rule broken, a redirect): such objectives read
 * the whole step, warm-up included, since one violation anywhere is one too many; the others read the judged stretch.
 */
export function judgesWholeStep(metric: string): boolean {
  const name = metric.replace(/\{.*$/, "");
  return name === METRIC.expiries || name === METRIC.redirects;
}

/** A metric's sub-metric over a step's judged stretch: `events_failed` → `events_failed{scenario:capacity}`. */
export function judgedMetric(metric: string): string {
  if (judgesWholeStep(metric) || /[{,]scenario:/.test(metric)) return metric;
  const brace = metric.indexOf("{");
  return brace < 0 ? `${metric}{${JUDGED_TAG}}` : `${metric.slice(0, -1)},${JUDGED_TAG}}`;
}

/** An objective's name as the user gave it, judgedMetric undone: the judged stretch's tag left out. */
export function objectiveName(metric: string): string {
  return metric.replace(`{${JUDGED_TAG}}`, "").replace(`,${JUDGED_TAG}}`, "}");
}

/** The objectives of a step as k6 thresholds: each on its judged stretch, unless it proves a violation. */
export function judgedThresholds(
  thresholds: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const judged: Record<string, string[]> = {};
  for (const [metric, expressions] of Object.entries(thresholds)) {
    const name = judgedMetric(metric);
    judged[name] = [...(judged[name] ?? []), ...expressions];
  }
  return judged;
}
