import { checkThreshold, OBSERVE_EXPRESSIONS } from "../../load/index.ts";

/** The parts of k6's handleSummary() data the reports read (k6 v2, the default machine-readable form). */
export interface SummaryMetric {
  readonly type: "counter" | "gauge" | "rate" | "trend";
  readonly contains: string;
  readonly values: Readonly<Record<string, number>>;
  readonly thresholds?: Readonly<Record<string, { readonly ok: boolean }>>;
}

export interface SummaryData {
  readonly metrics: Readonly<Record<string, SummaryMetric>>;
  readonly state?: { readonly testRunDurationMs?: number };
}

export interface ThresholdResult {
  readonly metric: string;
  readonly expression: string;
  readonly ok: boolean;
  /** The aggregate the expression tests, e.g. `p(95)=1612.3ms`, when k6 reported it. */
  readonly observed: string | undefined;
}

export function metricValue(data: SummaryData, metric: string, stat: string): number | undefined {
  return data.metrics[metric]?.values[stat];
}

/** Count of a counter (or sub-metric), 0 when k6 never saw it. */
export function count(data: SummaryData, metric: string): number {
  return metricValue(data, metric, "count") ?? 0;
}

/**
 * The value a threshold tested, in the expression's own unit (ms for time, % for rates) with two decimals, or as
 * many more as it takes to read as passing or failing the way k6 judged it: `p(95)<=500` failed at 500.001 ms
 * reads `500.001ms`, never a `500ms` that looks like a pass.
 */
export function formatThresholdValue(
  metric: SummaryMetric | undefined,
  expression: string,
  ok: boolean,
  value: number,
): string {
  const stat = expressionStat(expression);
  const time = metric?.contains === "time" && stat !== "count";
  const percent = metric?.type === "rate" && stat === "rate";
  const unit = time ? "ms" : percent ? "%" : "";
  const scale = percent ? 100 : 1;
  for (let digits = 2; digits <= 6; digits += 1) {
    const shown = roundTo(value * scale, digits);
    // An expression we cannot evaluate (undefined) takes the two decimals.
    if (checkThreshold(expression, { [stat]: shown / scale }) !== !ok) return `${shown}${unit}`;
  }
  return `${value * scale}${unit}`;
}

/** Two decimals at most: how every load report writes a number. */
export function round(value: number): number {
  return roundTo(value, 2);
}

function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The statistic an expression tests: `p(95)<500` → `p(95)`. */
export function expressionStat(expression: string): string {
  const match = /^\s*(p\([\d.]+\)|[a-z]+)/.exec(expression);
  return match?.[1] ?? "";
}

/** Every threshold k6 evaluated, failures first, observation-only ones left out. */
export function thresholdResults(data: SummaryData): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const [name, metric] of Object.entries(data.metrics)) {
    for (const [expression, { ok }] of Object.entries(metric.thresholds ?? {})) {
      if (OBSERVE_EXPRESSIONS.includes(expression)) continue;
      const stat = expressionStat(expression);
      const value = metric.values[stat];
      results.push({
        metric: name,
        expression,
        ok,
        observed:
          value === undefined ? undefined : `${stat}=${formatThresholdValue(metric, expression, ok, value)}`,
      });
    }
  }
  return results.sort((a, b) => Number(a.ok) - Number(b.ok) || a.metric.localeCompare(b.metric));
}
