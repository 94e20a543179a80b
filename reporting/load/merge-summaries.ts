import { checkThreshold, parseExpression } from "../../load/index.ts";
import type { SummaryData, SummaryMetric } from "./summary-data.ts";
import { percentile } from "./trend-samples.ts";

/** The trend statistics a merged summary states (the run's summaryTrendStats), besides any a threshold names. */
const TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)"] as const;

type MutableValues = Record<string, number>;

function sumOf(summaries: readonly SummaryData[], name: string, stat: string): number {
  let total = 0;
  for (const summary of summaries) total += summary.metrics[name]?.values[stat] ?? 0;
  return total;
}

function trendValues(samples: Float64Array | undefined, stats: readonly string[]): MutableValues {
  const values: MutableValues = { count: samples?.length ?? 0 };
  const sorted = samples ?? new Float64Array(0);
  let total = 0;
  for (const value of sorted) total += value;
  for (const stat of stats) {
    if (stat === "avg") values.avg = sorted.length === 0 ? 0 : total / sorted.length;
    else if (stat === "min") values.min = sorted[0] ?? 0;
    else if (stat === "max") values.max = sorted[sorted.length - 1] ?? 0;
    else if (stat === "med") values.med = percentile(sorted, 0.5);
    else {
      const match = /^p\(([\d.]+)\)$/.exec(stat);
      if (match) values[stat] = percentile(sorted, Number(match[1]) / 100);
    }
  }
  return values;
}

/**
 * Merges the end-of-test summaries of the instances of one run into one summary in k6's form: counters and rates
 * add, gauges add (instances run side by side), trends come from the pooled samples (`trendSamples`, sorted), and
 * every threshold is evaluated again on the merged values with k6's expressions. Durations are the longest
 * instance's, so counter rates are the whole run's.
 */
export function mergeSummaries(
  summaries: readonly SummaryData[],
  trendSamples: ReadonlyMap<string, Float64Array>,
): SummaryData {
  const durationMs = Math.max(0, ...summaries.map((s) => s.state?.testRunDurationMs ?? 0));
  const names = new Set(summaries.flatMap((s) => Object.keys(s.metrics)));
  const metrics: Record<string, SummaryMetric> = {};
  for (const name of [...names].sort()) {
    const shapes = summaries.map((s) => s.metrics[name]).filter((m) => m !== undefined);
    const first = shapes[0] as SummaryMetric;
    const expressions = [...new Set(shapes.flatMap((m) => Object.keys(m.thresholds ?? {})))];
    let values: MutableValues;
    switch (first.type) {
      case "counter": {
        const count = sumOf(summaries, name, "count");
        values = { count, rate: durationMs > 0 ? count / (durationMs / 1000) : 0 };
        break;
      }
      case "rate": {
        const passes = sumOf(summaries, name, "passes");
        const fails = sumOf(summaries, name, "fails");
        values = { passes, fails, rate: passes + fails === 0 ? 0 : passes / (passes + fails) };
        break;
      }
      case "gauge":
        values = {
          value: sumOf(summaries, name, "value"),
          min: sumOf(summaries, name, "min"),
          max: sumOf(summaries, name, "max"),
        };
        break;
      default: {
        const named = expressions
          .map((e) => parseExpression(e)?.stat ?? "")
          .filter((s) => s.startsWith("p("));
        values = trendValues(trendSamples.get(name), [...TREND_STATS, ...named]);
      }
    }
    const thresholds: Record<string, { ok: boolean }> = {};
    for (const expression of expressions) {
      thresholds[expression] = { ok: checkThreshold(expression, values) ?? false };
    }
    metrics[name] = {
      type: first.type,
      contains: first.contains,
      values,
      ...(expressions.length > 0 ? { thresholds } : {}),
    };
  }
  return { metrics, state: { testRunDurationMs: durationMs } };
}

/** The trend metrics (and sub-metrics) of the summaries: the samples a merge needs. */
export function trendKeys(summaries: readonly SummaryData[]): string[] {
  const keys = new Set<string>();
  for (const summary of summaries) {
    for (const [name, metric] of Object.entries(summary.metrics)) if (metric.type === "trend") keys.add(name);
  }
  return [...keys].sort();
}
