import {
  EVENT_DURATION,
  EVENT_REDIRECTS,
  EXPIRY,
  METRIC,
  OBSERVED_REJECTION_STATUSES,
  REFRESH_REASONS,
  SCENARIO_ITERATIONS_PREFIX,
  TOKEN_DURATION,
  TOKEN_FAILURES,
  TOKEN_REASONS,
  tokenRefreshes,
} from "../../load/index.ts";
import type { InstanceTotals } from "./report-context.ts";
import type { SummaryData } from "./summary-data.ts";
import { count, metricValue } from "./summary-data.ts";

export const LATENCY_STATS = ["avg", "med", "p(90)", "p(95)", "p(99)", "max"] as const;

export interface ReportFacts {
  readonly runSeconds: number;
  /** Seconds of token warm-up before the rate started (0: none). */
  readonly warmUpSeconds: number;
  /** Seconds after the warm-up, which rates are over. */
  readonly loadSeconds: number;
  readonly eventsAccepted: number;
  /** Events finally not accepted. */
  readonly eventsRejected: number;
  readonly acceptedPerSecond: number;
  readonly errorRate: number;
  readonly rejectedByStatus: ReadonlyArray<readonly [status: string, count: number]>;
  readonly iterations: number;
  readonly droppedIterations: number;
  readonly eventLatency: ReadonlyArray<readonly [stat: string, ms: number]>;
  readonly tokenRequests: number;
  readonly tokenRequestsByReason: ReadonlyArray<readonly [reason: string, count: number]>;
  readonly tokenRefreshes: number;
  readonly tokenFailures: number;
  readonly tokenLatency: ReadonlyArray<readonly [stat: string, ms: number]>;
  /** 401s for tokens in use: violations of sliding expiry. */
  readonly unexpectedExpiries: number;
  /** Tokens accepted after idling past expires_in: violations of sliding expiry. */
  readonly idleOutlived: number;
  /** 401s after an idle gap: expiries the spec asks for. */
  readonly idleExpiries: number;
  /** Tokens accepted expires_in + margin or longer after their issue: the lifetime slid with use. */
  readonly extendedTokens: number;
  /** Tokens accepted after idling more than half of expires_in + margin: no early idle expiry. */
  readonly idleSurvivals: number;
}

function latency(data: SummaryData, metric: string): Array<readonly [string, number]> {
  const out: Array<readonly [string, number]> = [];
  for (const stat of LATENCY_STATS) {
    const value = metricValue(data, metric, stat);
    if (value !== undefined) out.push([stat, value]);
  }
  return out;
}

/** The scenario's own iterations when k6 kept them apart (a run with a warm-up), else all of them. */
function iterations(data: SummaryData): number {
  const own = Object.keys(data.metrics).find((name) => name.startsWith(SCENARIO_ITERATIONS_PREFIX));
  return count(data, own ?? "iterations");
}

/**
 * The numbers every load report shows (the load command's and the run's), read once from k6's summary data; rates
 * leave a warm-up's seconds out.
 */
export function reportFacts(data: SummaryData, warmUpSeconds = 0): ReportFacts {
  const runSeconds = (data.state?.testRunDurationMs ?? 0) / 1000;
  // A run stopped during its warm-up had no load seconds, not a negative number of them.
  const loadSeconds = Math.max(0, runSeconds - warmUpSeconds);
  // events_failed has one sample per event, false when accepted: the counts agree with the error rate by design.
  // events_rejected, recorded with each true sample, only breaks them down by status.
  const eventsAccepted = metricValue(data, METRIC.eventsFailed, "fails") ?? 0;
  const eventsRejected = metricValue(data, METRIC.eventsFailed, "passes") ?? 0;
  const rejectedByStatus: Array<readonly [string, number]> = [];
  let listed = 0;
  for (const status of OBSERVED_REJECTION_STATUSES) {
    const n = count(data, `${METRIC.eventsRejected}{status:${status}}`);
    listed += n;
    if (n > 0) rejectedByStatus.push([status, n]);
  }
  // A redirected event is rejected once and counted once in redirects{endpoint:events}, which k6 already keeps.
  const redirected = count(data, EVENT_REDIRECTS);
  listed += redirected;
  if (redirected > 0) rejectedByStatus.push(["3xx", redirected]);
  if (eventsRejected > listed) rejectedByStatus.push(["other", eventsRejected - listed]);
  const tokenRequestsByReason: Array<readonly [string, number]> = [];
  for (const reason of TOKEN_REASONS) {
    const n = count(data, `${METRIC.tokenRequests}{reason:${reason}}`);
    if (n > 0) tokenRequestsByReason.push([reason, n]);
  }
  let tokenRefreshCount = 0;
  for (const reason of REFRESH_REASONS) tokenRefreshCount += count(data, tokenRefreshes(reason));
  return {
    runSeconds,
    warmUpSeconds,
    loadSeconds,
    eventsAccepted,
    eventsRejected,
    acceptedPerSecond: loadSeconds > 0 ? eventsAccepted / loadSeconds : 0,
    errorRate: metricValue(data, METRIC.eventsFailed, "rate") ?? 0,
    rejectedByStatus,
    iterations: iterations(data),
    droppedIterations: count(data, "dropped_iterations"),
    eventLatency: latency(data, EVENT_DURATION),
    tokenRequests: count(data, METRIC.tokenRequests),
    tokenRequestsByReason,
    tokenRefreshes: tokenRefreshCount,
    tokenFailures: count(data, TOKEN_FAILURES),
    tokenLatency: latency(data, TOKEN_DURATION),
    unexpectedExpiries: count(data, EXPIRY.unexpected),
    idleOutlived: count(data, EXPIRY.outlived),
    idleExpiries: count(data, EXPIRY.idle),
    extendedTokens: count(data, EXPIRY.extended),
    idleSurvivals: count(data, EXPIRY.survived),
  };
}

/** One instance's own counts, from its own summary. */
export function instanceTotals(segment: string, data: SummaryData): InstanceTotals {
  const facts = reportFacts(data);
  return {
    segment,
    eventsAccepted: facts.eventsAccepted,
    eventsRejected: facts.eventsRejected,
    iterations: facts.iterations,
    droppedIterations: facts.droppedIterations,
    tokenRequests: facts.tokenRequests,
  };
}
