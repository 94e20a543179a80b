import type { SummaryData, ThresholdResult } from "../../load/index.ts";
import { EVENT_DURATION, EXPIRY, METRIC, thresholdResults } from "../../load/index.ts";

export interface LoadFigures {
  readonly runSeconds: number;
  readonly eventsAccepted: number;
  readonly eventsFailed: number;
  readonly errorRate: number;
  readonly eventLatencyMs: Readonly<Record<"med" | "p(95)" | "p(99)" | "max", number | undefined>>;
  readonly tokenRequests: number;
  readonly tokenRefreshes: number;
  readonly idleExpiries: number;
  readonly unexpectedExpiries: number;
  readonly idleOutlived: number;
  readonly droppedIterations: number;
}

export interface LoadSummary {
  readonly figures: LoadFigures;
  /** Every judging threshold, failures first. */
  readonly thresholds: readonly ThresholdResult[];
  /** The load command's sliding-expiry verdict (`held`, `broken`, `inconclusive`, `not-exercised`) and why. */
  readonly slidingExpiry?: { readonly level: string; readonly reasons: readonly string[] };
  /** What ran, as the load command describes it. */
  readonly context?: {
    readonly scenario?: string;
    readonly rate?: number;
    readonly vus?: number;
    readonly durationSeconds?: number;
    /** Seconds of token warm-up before the rate started. */
    readonly warmUpSeconds?: number;
    readonly expiresInSeconds?: number;
    readonly clientModel?: string;
  };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

const METRIC_TYPES = ["counter", "gauge", "rate", "trend"] as const;

/** The well-formed metrics of a parsed summary.json, in the shape load/'s readers take; the rest is left out. */
function summaryData(rawMetrics: Json, rawState: unknown): SummaryData {
  const metrics: Record<string, SummaryData["metrics"][string]> = {};
  for (const [name, metric] of Object.entries(rawMetrics)) {
    if (!isObject(metric) || !isObject(metric.values)) continue;
    const values = Object.fromEntries(
      Object.entries(metric.values).filter((entry): entry is [string, number] => num(entry[1]) !== undefined),
    );
    const thresholds = isObject(metric.thresholds)
      ? Object.fromEntries(
          Object.entries(metric.thresholds).flatMap(([expression, result]) =>
            isObject(result) && typeof result.ok === "boolean" ? [[expression, { ok: result.ok }]] : [],
          ),
        )
      : {};
    metrics[name] = {
      type: METRIC_TYPES.find((type) => type === metric.type) ?? "counter",
      contains: str(metric.contains) ?? "default",
      values,
      thresholds,
    };
  }
  const runMs = isObject(rawState) ? num(rawState.testRunDurationMs) : undefined;
  return { metrics, ...(runMs === undefined ? {} : { state: { testRunDurationMs: runMs } }) };
}

/**
 * Reads the load command's summary.json (k6's end-of-test data plus a `harness` member) defensively: every field is
 * checked, so a summary of another shape yields fewer figures, never an exception or a wrong number.
 */
export function digestLoadSummary(data: unknown): LoadSummary | undefined {
  if (!isObject(data) || !isObject(data.metrics)) return undefined;
  const summary = summaryData(data.metrics, data.state);
  const values = (name: string) => summary.metrics[name]?.values ?? {};
  const count = (name: string) => values(name).count ?? 0;
  const latency = values(EVENT_DURATION);
  const figures: LoadFigures = {
    runSeconds: (summary.state?.testRunDurationMs ?? 0) / 1000,
    // events_failed's false samples are the accepted events.
    eventsAccepted: values(METRIC.eventsFailed).fails ?? 0,
    eventsFailed: values(METRIC.eventsFailed).passes ?? 0,
    errorRate: values(METRIC.eventsFailed).rate ?? 0,
    eventLatencyMs: {
      med: latency.med,
      "p(95)": latency["p(95)"],
      "p(99)": latency["p(99)"],
      max: latency.max,
    },
    tokenRequests: count(METRIC.tokenRequests),
    tokenRefreshes: count(METRIC.tokenRefreshes),
    idleExpiries: count(EXPIRY.idle),
    unexpectedExpiries: count(EXPIRY.unexpected),
    idleOutlived: count(EXPIRY.outlived),
    droppedIterations: count("dropped_iterations"),
  };
  const thresholds = thresholdResults(summary);
  const harness = isObject(data.harness) ? data.harness : {};
  const verdict = isObject(harness.verdict) ? harness.verdict : undefined;
  const level = str(verdict?.level);
  const context = isObject(harness.context) ? harness.context : undefined;
  return {
    figures,
    thresholds,
    ...(level === undefined
      ? {}
      : {
          slidingExpiry: {
            level,
            reasons: Array.isArray(verdict?.reasons)
              ? verdict.reasons.filter((r) => typeof r === "string")
              : [],
          },
        }),
    ...(context === undefined
      ? {}
      : {
          context: Object.fromEntries(
            Object.entries({
              scenario: str(context.scenario),
              rate: num(context.rate),
              vus: num(context.vus),
              durationSeconds: num(context.durationSeconds),
              warmUpSeconds: num(context.warmUpSeconds),
              expiresInSeconds: num(context.expiresInSeconds),
              clientModel: str(context.clientModel),
            }).filter(([, value]) => value !== undefined),
          ),
        }),
  };
}
