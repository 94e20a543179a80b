/**
 * The custom metrics, few and named for what they mean. Kept apart from their k6 objects so thresholds and reports
 * (plain code, unit-tested in Node) can name them.
 */
export const METRIC = {
  /**
   * Counter: token endpoint calls, tagged `reason` (initial, idle, lifetime, rejected, per-iteration) and `outcome`
   * (TOKEN_OUTCOME below); failures and refreshes are its sub-metrics, so a VU carries no counter for them.
   */
  tokenRequests: "token_requests",
  /** Counter: what the expiry rule was seen to do, tagged `kind` (EXPIRY below): one metric instead of five per VU. */
  expiries: "token_expiries",
  /** Counter: events finally not accepted, tagged `status` (HTTP status, or `no-token`, `network`). */
  eventsRejected: "events_rejected",
  /**
   * Rate: one sample per event, true when it was finally not accepted: the error-rate threshold's metric. Its false
   * samples count the accepted events (2xx, after at most one retry on 401), so no second metric is paid per event.
   */
  eventsFailed: "events_failed",
  /**
   * Counter: 3xx answers, tagged `endpoint` (token, events) and `status`. k6 follows none (redirects: 0), so no
   * credential leaves for the Location's origin; each is a contract violation, and the request failed.
   */
  redirects: "redirects",
} as const;

/** The `kind` tag of token_expiries. */
export const EXPIRY_KIND_TAG = "kind";

/** The kinds of token_expiries, as the sub-metrics thresholds and reports name. */
export const EXPIRY = {
  /** 401s for tokens used less than expires_in − margin ago: the target broke sliding expiry. */
  unexpected: "token_expiries{kind:unexpected}",
  /** 401s for tokens idle at least expires_in − margin: expiry confirmed, as the spec says. */
  idle: "token_expiries{kind:idle}",
  /** Tokens accepted after idling expires_in + margin or longer: the target never expires idle tokens. */
  outlived: "token_expiries{kind:outlived}",
  /**
   * Tokens accepted expires_in + margin or longer after their issue, once per token: the lifetime slid with use, which
   * a lifetime fixed from issue would not.
   */
  extended: "token_expiries{kind:extended}",
  /** Tokens accepted after idling more than half of expires_in + margin: no early expiry of idle tokens. */
  survived: "token_expiries{kind:survived}",
} as const;

/** The `outcome` tag of token_requests; a failed request also carries the token endpoint's HTTP `status`. */
export const TOKEN_OUTCOME_TAG = "outcome";
export const TOKEN_OUTCOME = {
  /** A usable token came back (status 200 with access_token and expires_in). */
  issued: "issued",
  /** No usable token: another status, or a body without access_token or expires_in. */
  failed: "failed",
} as const;

/**
 * Token requests that got no usable token: the former token_request_failures counter. A literal (the k6 bundle keeps
 * a template literal, and with it TOKEN_OUTCOME, in every VU); a test holds it to the names above.
 */
export const TOKEN_FAILURES = "token_requests{outcome:failed}";

/**
 * Refreshes for one reason (idle, lifetime, rejected): a token issued for one of those reasons replaces a held one,
 * as only a VU holding a token asks for them. Their sum is the former token_refreshes counter.
 */
export const tokenRefreshes = (reason: string): string =>
  `${METRIC.tokenRequests}{reason:${reason},${TOKEN_OUTCOME_TAG}:${TOKEN_OUTCOME.issued}}`;

/** The tag that keeps token requests apart from event requests in k6's built-in http_* metrics. */
export const ENDPOINT_TAG = "endpoint";
export const EVENTS_ENDPOINT = "events";
export const TOKEN_ENDPOINT = "token";

/** Event request latency only (token requests excluded): what latency thresholds and reports use. */
export const EVENT_DURATION = `http_req_duration{${ENDPOINT_TAG}:${EVENTS_ENDPOINT}}`;

/** The latency objective of every scenario unless `--threshold` replaces it: 95 % of events answered within 500 ms. */
export const DEFAULT_LATENCY_OBJECTIVE = "p(95)<500";

/**
 * Event requests answered 2xx or 3xx (k6's expected statuses), counted as they happen: the live progress line reads
 * it from k6's REST API and takes EVENT_REDIRECTS off, so it counts the events the API accepted.
 */
export const EVENTS_ACCEPTED = `http_reqs{${ENDPOINT_TAG}:${EVENTS_ENDPOINT},expected_response:true}`;

/** Event requests answered 3xx: violations, never accepted events. */
export const EVENT_REDIRECTS = `${METRIC.redirects}{${ENDPOINT_TAG}:${EVENTS_ENDPOINT}}`;

/** Token request latency: k6's own samples, so a VU carries no custom Trend (it cost each VU memory). */
export const TOKEN_DURATION = `http_req_duration{${ENDPOINT_TAG}:${TOKEN_ENDPOINT}}`;

/** The scenario's own iterations (a warm-up's left out): the one `iterations` sub-metric the harness names. */
export const SCENARIO_ITERATIONS_PREFIX = "iterations{scenario:";
export const scenarioIterations = (scenario: string): string => `${SCENARIO_ITERATIONS_PREFIX}${scenario}}`;
