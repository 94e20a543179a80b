/** The k6 sub-metric of event request durations the load command reports latency from. */
const EVENT_DURATION = "http_req_duration{endpoint:events}";
/** Thresholds the load command adds only to make k6 report a sub-metric; they judge nothing. */
const OBSERVE_EXPRESSION = "count>=0";

export interface LoadThreshold {
  readonly metric: string;
  readonly expression: string;
  readonly ok: boolean;
  /** The value the expression tested, e.g. `p(95)=7.5ms`, when k6 reported it. */
  readonly observed?: string;
}

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
  readonly thresholds: readonly LoadThreshold[];
  /** The load command's sliding-expiry verdict (`held`, `broken`, `inconclusive`, `not-exercised`) and why. */
  readonly slidingExpiry?: { readonly level: string; readonly reasons: readonly string[] };
  /** What ran, as the load command describes it. */
  readonly context?: {
    readonly scenario?: string;
    readonly rate?: number;
    readonly vus?: number;
    readonly durationSeconds?: number;
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

function formatObserved(metric: Json, stat: string, value: number): string {
  const round = (n: number) => Math.round(n * 100) / 100;
  if (metric.contains === "time" && stat !== "count") {
    return `${stat}=${value >= 1000 ? `${round(value / 1000)}s` : `${round(value)}ms`}`;
  }
  if (metric.type === "rate" && stat === "rate") return `${stat}=${round(value * 100)}%`;
  return `${stat}=${round(value)}`;
}

/**
 * Reads the load command's summary.json (k6's end-of-test data plus a `harness` member) defensively: every field is
 * checked, so a summary of another shape yields fewer figures, never an exception or a wrong number.
 */
export function digestLoadSummary(data: unknown): LoadSummary | undefined {
  if (!isObject(data) || !isObject(data.metrics)) return undefined;
  const metrics = data.metrics;
  const values = (name: string): Json => {
    const metric = metrics[name];
    return isObject(metric) && isObject(metric.values) ? metric.values : {};
  };
  const count = (name: string) => num(values(name).count) ?? 0;
  const state = isObject(data.state) ? data.state : {};
  const latency = values(EVENT_DURATION);
  const figures: LoadFigures = {
    runSeconds: (num(state.testRunDurationMs) ?? 0) / 1000,
    eventsAccepted: num(values("events_failed").fails) ?? 0,
    eventsFailed: num(values("events_failed").passes) ?? 0,
    errorRate: num(values("events_failed").rate) ?? 0,
    eventLatencyMs: {
      med: num(latency.med),
      "p(95)": num(latency["p(95)"]),
      "p(99)": num(latency["p(99)"]),
      max: num(latency.max),
    },
    tokenRequests: count("token_requests"),
    tokenRefreshes: count("token_refreshes"),
    idleExpiries: count("token_idle_expiries"),
    unexpectedExpiries: count("token_unexpected_expiries"),
    idleOutlived: count("token_idle_outlived"),
    droppedIterations: count("dropped_iterations"),
  };
  const thresholds: LoadThreshold[] = [];
  for (const [name, metric] of Object.entries(metrics)) {
    if (!isObject(metric) || !isObject(metric.thresholds)) continue;
    for (const [expression, result] of Object.entries(metric.thresholds)) {
      if (expression === OBSERVE_EXPRESSION || !isObject(result) || typeof result.ok !== "boolean") continue;
      const stat = /^\s*(p\([\d.]+\)|[a-z]+)/.exec(expression)?.[1] ?? "";
      const value = isObject(metric.values) ? num(metric.values[stat]) : undefined;
      thresholds.push({
        metric: name,
        expression,
        ok: result.ok,
        ...(value === undefined ? {} : { observed: formatObserved(metric, stat, value) }),
      });
    }
  }
  thresholds.sort((a, b) => Number(a.ok) - Number(b.ok) || a.metric.localeCompare(b.metric));
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
              expiresInSeconds: num(context.expiresInSeconds),
              clientModel: str(context.clientModel),
            }).filter(([, value]) => value !== undefined),
          ),
        }),
  };
}
