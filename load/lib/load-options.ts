import { CAPACITY_WARM_UP_SCENARIO, judgedMetric, judgedThresholds } from "./capacity-plan.ts";
import {
  EVENT_DURATION,
  EVENT_REDIRECTS,
  EVENTS_ACCEPTED,
  EXPIRY,
  METRIC,
  scenarioIterations,
  TOKEN_DURATION,
  TOKEN_FAILURES,
  tokenRefreshes,
} from "./metric-names.ts";
import {
  OBSERVE_EXPRESSION,
  OBSERVE_RATE_EXPRESSION,
  OBSERVE_TREND_EXPRESSION,
  OBSERVED_REJECTION_STATUSES,
  TOKEN_REASONS,
} from "./observed-metrics.ts";
import type { RunConfig } from "./run-config.ts";
import type { ScenarioPlan } from "./scenario-plan.ts";
import { defaultThresholds, mergeThresholds } from "./thresholds.ts";
import { REFRESH_REASONS } from "./token-policy.ts";
import { WARM_UP_SCENARIO } from "./warm-up.ts";

/** The subset of k6's Options the harness sets; a plain object so it can be built and tested outside k6. */
export interface LoadOptions {
  readonly scenarios: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly thresholds: Readonly<Record<string, readonly string[]>>;
  readonly discardResponseBodies: boolean;
  readonly summaryTrendStats: readonly string[];
  readonly systemTags: readonly string[];
  readonly noCookiesReset: boolean;
  /** 0: no request follows a redirect (each request also says so), so credentials never leave the target. */
  readonly maxRedirects: number;
  readonly setupTimeout: string;
  /** Set only by --insecure, for a throwaway self-signed sandbox. */
  readonly insecureSkipTLSVerify?: boolean;
}

/**
 * Sub-metrics the reports break down (rejections by status, token requests by reason, refreshes, failed token
 * requests); k6 keeps them only if named.
 */
function observedSubmetrics(config: RunConfig): Record<string, string[]> {
  const observed: Record<string, string[]> = {
    [EVENT_DURATION]: [OBSERVE_TREND_EXPRESSION],
    [TOKEN_DURATION]: [OBSERVE_TREND_EXPRESSION],
    [scenarioIterations(config.scenario)]: [OBSERVE_EXPRESSION],
    [EVENTS_ACCEPTED]: [OBSERVE_EXPRESSION],
    [EVENT_REDIRECTS]: [OBSERVE_EXPRESSION],
  };
  for (const kind of Object.values(EXPIRY)) observed[kind] = [OBSERVE_EXPRESSION];
  for (const status of OBSERVED_REJECTION_STATUSES) {
    observed[`${METRIC.eventsRejected}{status:${status}}`] = [OBSERVE_EXPRESSION];
  }
  for (const reason of TOKEN_REASONS)
    observed[`${METRIC.tokenRequests}{reason:${reason}}`] = [OBSERVE_EXPRESSION];
  for (const reason of REFRESH_REASONS) observed[tokenRefreshes(reason)] = [OBSERVE_EXPRESSION];
  observed[TOKEN_FAILURES] = [OBSERVE_EXPRESSION];
  if (config.scenario === "capacity") {
    // A step's table and chart read its judged stretch: latency percentiles, failures and dropped iterations.
    observed[judgedMetric(EVENT_DURATION)] = [OBSERVE_TREND_EXPRESSION];
    observed[judgedMetric(METRIC.eventsFailed)] = [OBSERVE_RATE_EXPRESSION];
    observed[judgedMetric("dropped_iterations")] = [OBSERVE_EXPRESSION];
  }
  return observed;
}

/** k6 options for a scenario: its executor, thresholds (defaults, then the user's), and memory-friendly settings. */
export function loadOptions(config: RunConfig, plan: ScenarioPlan): LoadOptions {
  const objectives = mergeThresholds(defaultThresholds(config, plan), config.thresholdOverrides);
  // A capacity step is judged on its judged stretch only: every objective reads that part's sub-metric.
  const judged = config.scenario === "capacity" ? judgedThresholds(objectives) : objectives;
  const thresholds = mergeThresholds(observedSubmetrics(config), judged);
  return {
    scenarios: {
      ...(plan.warmUp === undefined ? {} : { [WARM_UP_SCENARIO]: plan.warmUp }),
      ...(plan.rateWarmUp === undefined ? {} : { [CAPACITY_WARM_UP_SCENARIO]: plan.rateWarmUp }),
      [config.scenario]: plan.executor,
    },
    thresholds,
    // Only token responses are read (they ask for text); dropping event bodies saves memory on every request.
    discardResponseBodies: true,
    summaryTrendStats: ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)", "count"],
    // Fewer system tags mean fewer time series to keep, which matters in a soak; `url` would repeat `name`.
    systemTags: ["status", "method", "name", "scenario", "expected_response", "error_code"],
    noCookiesReset: true,
    maxRedirects: 0,
    setupTimeout: "30s",
    ...(config.insecure ? { insecureSkipTLSVerify: true } : {}),
  };
}
