import {
  DEFAULT_LATENCY_OBJECTIVE,
  EVENT_DURATION,
  EXPIRY,
  METRIC,
  TOKEN_DURATION,
  TOKEN_FAILURES,
} from "./metric-names.ts";
import { RENAMED_METRICS, RETIRED_METRICS } from "./renamed-metrics.ts";
import type { RunConfig } from "./run-config.ts";
import type { ScenarioPlan } from "./scenario-plan.ts";

export type Thresholds = Readonly<Record<string, readonly string[]>>;

/** Dropped iterations allowed, as a share of the planned ones, before the load generator counts as overwhelmed. */
export const DROPPED_ITERATIONS_SHARE = 0.01;

/**
 * The scenario's default thresholds. Any contract violation fails the run; error rate, latency and (for open models)
 * dropped iterations guard the measurement itself. `--threshold` replaces a metric's list.
 */
export function defaultThresholds(config: RunConfig, plan: ScenarioPlan): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {
    [EXPIRY.unexpected]: ["count==0"],
    [EXPIRY.outlived]: ["count==0"],
    [METRIC.eventsFailed]: ["rate<0.01"],
    // A redirect is never followed and never success: one fails the run, whatever share of requests it is.
    [METRIC.redirects]: ["count==0"],
    [EVENT_DURATION]: [DEFAULT_LATENCY_OBJECTIVE],
  };
  if (plan.plannedIterations !== undefined) {
    // Guards against coordinated omission: iterations k6 could not start were never measured.
    const allowed = Math.floor(plan.plannedIterations * DROPPED_ITERATIONS_SHARE);
    thresholds.dropped_iterations = [`count<=${allowed}`];
  }
  if (plan.idleGap !== undefined) {
    // Each cycle's token must be seen to do all three: a target that breaks one fails here even when no 401 was
    // misjudged (never expires idle tokens: idle; fixed from issue: extended; expires idle tokens early: survived).
    const perCycle = `count>=${config.vus * plan.idleGap.cycles}`;
    thresholds[EXPIRY.idle] = [perCycle];
    thresholds[EXPIRY.extended] = [perCycle];
    thresholds[EXPIRY.survived] = [perCycle];
  }
  if (config.scenario === "token-storm") {
    thresholds[TOKEN_DURATION] = ["p(95)<1000"];
    thresholds[TOKEN_FAILURES] = ["count==0"];
  }
  return thresholds;
}

/** Overrides replace the defaults metric by metric; a metric absent from the overrides keeps its defaults. */
export function mergeThresholds(defaults: Thresholds, overrides: Thresholds): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const [metric, expressions] of Object.entries(defaults)) merged[metric] = [...expressions];
  for (const [metric, expressions] of Object.entries(overrides)) merged[metric] = [...expressions];
  return merged;
}

const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\{[^{}=]+\})?$/;
const EXPRESSION =
  /^(?:count|rate|value|avg|min|max|med|p\((?:\d+(?:\.\d+)?)\))\s*(?:<=|>=|===|==|!=|<|>)\s*-?\d+(?:\.\d+)?$/;

export interface ThresholdArgument {
  readonly metric: string;
  readonly expression: string;
}

/**
 * Parses `--threshold NAME=EXPR`, e.g. `http_req_duration{endpoint:events}=p(95)<300` or `events_failed=rate<0.05`.
 * Throws an Error whose message explains the expected form.
 */
export function parseThresholdArgument(raw: string): ThresholdArgument {
  const text = raw.trim();
  let depth = 0;
  let split = -1;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === "{") depth += 1;
    else if (char === "}") depth -= 1;
    else if (char === "=" && depth === 0) {
      split = i;
      break;
    }
  }
  if (split <= 0) throw new Error(`expected NAME=EXPR (e.g. events_failed=rate<0.05), got '${raw}'`);
  const metric = text.slice(0, split).trim();
  const expression = text.slice(split + 1).trim();
  if (!METRIC_NAME.test(metric))
    throw new Error(`'${metric}' is not a metric name (NAME or NAME{tag:value})`);
  const instead = RETIRED_METRICS[metric.replace(/\{.*$/, "")];
  if (instead !== undefined) throw new Error(`'${metric}' is no longer a metric: ${instead}`);
  if (!EXPRESSION.test(expression)) {
    throw new Error(
      `'${expression}' is not a threshold expression: AGG OP NUMBER with AGG one of count, rate, value, avg, min, max, med, p(N)`,
    );
  }
  return { metric, expression };
}

/** A metric's name now: a renamed metric's new name, with the old sub-metric's tags added to the new one's. */
function currentName(metric: string): string {
  const brace = metric.indexOf("{");
  const renamed = RENAMED_METRICS[brace < 0 ? metric : metric.slice(0, brace)];
  if (renamed === undefined || brace < 0) return renamed ?? metric;
  const tags = metric.slice(brace + 1, -1);
  return renamed.endsWith("}") ? `${renamed.slice(0, -1)},${tags}}` : `${renamed}{${tags}}`;
}

/** Groups parsed arguments by metric, keeping their order; a renamed metric counts under its new name. */
export function groupThresholds(args: readonly ThresholdArgument[]): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const { metric, expression } of args) {
    const name = currentName(metric);
    const list = grouped[name] ?? [];
    list.push(expression);
    grouped[name] = list;
  }
  return grouped;
}
