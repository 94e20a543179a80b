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
  /** The aggregate the expression tests, e.g. `p(95)=612.3ms`, when k6 reported it. */
  readonly observed: string | undefined;
}

/**
 * An always-true threshold the harness adds only so that k6 reports a sub-metric (k6 summarises tagged
 * sub-metrics only when a threshold names them); reports and verdicts leave these out.
 */
export const OBSERVE_EXPRESSION = "count>=0";

/** The same for a Trend sub-metric, where k6 allows no `count` (a duration is never negative). */
export const OBSERVE_TREND_EXPRESSION = "min>=0";

export function metricValue(data: SummaryData, metric: string, stat: string): number | undefined {
  return data.metrics[metric]?.values[stat];
}

/** Count of a counter (or sub-metric), 0 when k6 never saw it. */
export function count(data: SummaryData, metric: string): number {
  return metricValue(data, metric, "count") ?? 0;
}

/** Formats a metric value in its unit: milliseconds for time metrics, percent for rates. */
export function formatValue(metric: SummaryMetric | undefined, stat: string, value: number): string {
  if (metric?.contains === "time" && stat !== "count") return formatMs(value);
  if (metric?.type === "rate" && stat === "rate") return `${round(value * 100)}%`;
  return String(round(value));
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${round(ms / 1000)}s` : `${round(ms)}ms`;
}

/** Two decimals at most: how every load report writes a number. */
export function round(value: number): number {
  return Math.round(value * 100) / 100;
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
      if (expression === OBSERVE_EXPRESSION || expression === OBSERVE_TREND_EXPRESSION) continue;
      const stat = expressionStat(expression);
      const value = metric.values[stat];
      results.push({
        metric: name,
        expression,
        ok,
        observed: value === undefined ? undefined : `${stat}=${formatValue(metric, stat, value)}`,
      });
    }
  }
  return results.sort((a, b) => Number(a.ok) - Number(b.ok) || a.metric.localeCompare(b.metric));
}
