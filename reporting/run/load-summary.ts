import type { ReportFacts, SummaryData, ThresholdResult } from "../../reporting/load/index.ts";
import { reportFacts, thresholdResults } from "../../reporting/load/index.ts";
import type { OutcomeFacts } from "../accepted/describe-outcomes.ts";
import { asOutcomes } from "./recorded-outcomes.ts";

export interface LoadSummary {
  /** The load command's own figures, read by its own reader, so the run report cannot tell another story. */
  readonly facts: ReportFacts;
  /** Every judging threshold, failures first. */
  readonly thresholds: readonly ThresholdResult[];
  /** The failed thresholds the ledger of accepted deviations waived. */
  readonly waived: readonly { readonly metric: string; readonly expression: string }[];
  /** The load command's verdict line: `PASSED: thresholds held; baseline UNCHANGED (…)`. */
  readonly verdictLine?: string;
  /** Why a finished run failed beyond its thresholds (`no event was accepted`), or why it has no verdict. */
  readonly reason?: string;
  /** Why iterations were dropped, when k6 said (it ran out of VUs). */
  readonly droppedCause?: string;
  /** What became of each entry of the ledger the run was judged with. */
  readonly accepted: readonly OutcomeFacts[];
  /** The ledger as the user named it. */
  readonly acceptedFile?: string;
  /** The load command's sliding-expiry verdict (`held`, `broken`, `inconclusive`, `not-exercised`) and why. */
  readonly slidingExpiry?: { readonly level: string; readonly reasons: readonly string[] };
  /** Whether the load generator, not the target, limited the run: what was measured and, when it did, why. */
  readonly generator?: {
    readonly limited: boolean;
    readonly measured: string;
    readonly signals: readonly string[];
  };
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
  const harness = isObject(data.harness) ? data.harness : {};
  const verdict = isObject(harness.verdict) ? harness.verdict : undefined;
  const level = str(verdict?.level);
  const context = isObject(harness.context) ? harness.context : undefined;
  const verdictLine = str(harness.verdictLine);
  const reason = isObject(harness.result) ? str(harness.result.reason) : undefined;
  const acceptedFile = str(harness.acceptedFile);
  const droppedCause = str(harness.droppedCause);
  const generator = isObject(harness.generator) ? harness.generator : undefined;
  const measured = str(generator?.measured);
  return {
    ...(droppedCause === undefined ? {} : { droppedCause }),
    ...(generator === undefined || measured === undefined
      ? {}
      : {
          generator: {
            limited: generator.limited === true,
            measured,
            signals: Array.isArray(generator.signals)
              ? generator.signals.flatMap((s: unknown) => {
                  const detail = isObject(s) ? str(s.detail) : undefined;
                  return detail === undefined ? [] : [detail];
                })
              : [],
          },
        }),
    ...(verdictLine === undefined ? {} : { verdictLine }),
    ...(reason === undefined ? {} : { reason }),
    accepted: asOutcomes(harness.accepted),
    ...(acceptedFile === undefined ? {} : { acceptedFile }),
    facts: reportFacts(summary, num(context?.warmUpSeconds) ?? 0),
    thresholds: thresholdResults(summary),
    waived: Array.isArray(harness.waivedThresholds)
      ? harness.waivedThresholds.flatMap((t: unknown) => {
          const metric = isObject(t) ? str(t.metric) : undefined;
          const expression = isObject(t) ? str(t.expression) : undefined;
          return metric === undefined || expression === undefined ? [] : [{ metric, expression }];
        })
      : [],
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
