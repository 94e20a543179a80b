// The Node-facing surface of load/: only modules free of k6 imports, so the CLI and tests can use them.

export type { CapacityStep } from "./lib/capacity-plan.ts";
export {
  CAPACITY_SCENARIO,
  CAPACITY_WARM_UP_SCENARIO,
  DEFAULT_STEP_SECONDS,
  DEFAULT_STEP_WARM_UP_SECONDS,
  eventsToJudge,
  FAILURE_EVENTS,
  JUDGED_TAG,
  judgedMetric,
  judgedSecondsFor,
  judgesWholeStep,
  MIN_STEP_EVENTS,
  objectiveName,
  TAIL_EVENTS,
} from "./lib/capacity-plan.ts";
export type {
  Bracket,
  NextStep,
  Resolution,
  SearchSettings,
  SearchStep,
  SearchStop,
  StepOutcome,
} from "./lib/capacity-search.ts";
export { bracketOf, MIN_RATE, nextStep, resolutionAt } from "./lib/capacity-search.ts";
export type { ClientModel } from "./lib/client-models.ts";
export { CLIENT_MODEL_SUMMARIES, CLIENT_MODELS } from "./lib/client-models.ts";
export { MAX_RUN_SECONDS, parseDurationSeconds } from "./lib/duration.ts";
export type { EnvRecord } from "./lib/env.ts";
export { envReader } from "./lib/env.ts";
export { AUDIENCE_NOT_SENT, LOAD_ENV, VU_BODY_CAP_ENV } from "./lib/env-names.ts";
export type { EventTemplate, EventTemplateFile } from "./lib/event-template.ts";
export {
  assembleEventBody,
  EVENT_TEMPLATE_FORMAT,
  eventReference,
  toEventTemplate,
  toSuffixedEventTemplate,
} from "./lib/event-template.ts";
export type { SegmentWork } from "./lib/execution-segments.ts";
export {
  executionSegment,
  executionSegmentSequence,
  segmentShare,
  segmentWork,
} from "./lib/execution-segments.ts";
export type { IdleGap, IdleGapPlan } from "./lib/idle-gap-plan.ts";
export { gapBefore, planIdleGaps } from "./lib/idle-gap-plan.ts";
export { loadOptions } from "./lib/load-options.ts";
export {
  DEFAULT_LATENCY_OBJECTIVE,
  ENDPOINT_TAG,
  EVENT_DURATION,
  EVENT_REDIRECTS,
  EVENTS_ACCEPTED,
  EXPIRY,
  EXPIRY_KIND_TAG,
  METRIC,
  SCENARIO_ITERATIONS_PREFIX,
  scenarioIterations,
  TOKEN_DURATION,
  TOKEN_FAILURES,
  TOKEN_OUTCOME,
  TOKEN_OUTCOME_TAG,
  tokenRefreshes,
} from "./lib/metric-names.ts";
export {
  OBSERVE_EXPRESSIONS,
  OBSERVED_REJECTION_STATUSES,
  TOKEN_REASONS,
} from "./lib/observed-metrics.ts";
export { RENAMED_METRICS, RETIRED_METRICS } from "./lib/renamed-metrics.ts";
export { RUN_BOUNDS } from "./lib/run-bounds.ts";
export type { ClientCredential, RunConfig } from "./lib/run-config.ts";
export { readRunConfig } from "./lib/run-config.ts";
export type { ScenarioName, ScenarioSpec } from "./lib/scenario-catalogue.ts";
export { isScenarioName, SCENARIO_NAMES, SCENARIOS, SPIKE_FACTOR } from "./lib/scenario-catalogue.ts";
export type { ScenarioPlan } from "./lib/scenario-plan.ts";
export { arrivalCeiling, planScenario } from "./lib/scenario-plan.ts";
export type { ParsedExpression } from "./lib/threshold-check.ts";
export { checkThreshold, parseExpression } from "./lib/threshold-check.ts";
export type { ThresholdArgument } from "./lib/thresholds.ts";
export {
  DROPPED_ITERATIONS_SHARE,
  defaultThresholds,
  groupThresholds,
  mergeThresholds,
  parseThresholdArgument,
} from "./lib/thresholds.ts";
export type { HeldToken, RejectionVerdict, TokenRequestReason } from "./lib/token-policy.ts";
export {
  classifyRejection,
  defaultMarginSeconds,
  extendedPastIssue,
  idleMs,
  outlivedIdle,
  REFRESH_REASONS,
  survivedIdle,
  tokenRequestReason,
} from "./lib/token-policy.ts";
export { parseTokenResponse } from "./lib/token-response.ts";
export type {
  MetricRecorders,
  SendEvent,
  VuClientDeps,
  VuCredential,
  VuHttp,
  VuResponse,
} from "./lib/vu-client.ts";
export { createVuClient, TEMPLATE_BLOCK_SHIFT, WARM_UP_INDEX } from "./lib/vu-client.ts";
export type { VuSettings } from "./lib/vu-settings.ts";
export { vuSettings } from "./lib/vu-settings.ts";
export {
  WARM_UP_EXEC,
  WARM_UP_SCENARIO,
  WARM_UP_SECONDS,
  WARM_UP_SLOTS,
  warmUpDelaySeconds,
} from "./lib/warm-up.ts";
