import type {
  GeneratorVerdict,
  LoadResult,
  ReportFacts,
  SlidingExpiryVerdict,
  ThresholdResult,
} from "../../reporting/load/index.ts";
import type { ReportInput } from "../../reporting/load/summary-markdown.ts";
import { sustainedReportContext } from "./run-config-fixture.ts";

/** The numbers of a short sustained run, as the report renderers receive them: 197 accepted, 3 not. */
export const loadFacts: ReportFacts = {
  runSeconds: 12,
  warmUpSeconds: 2,
  loadSeconds: 10,
  eventsAccepted: 197,
  eventsRejected: 3,
  acceptedPerSecond: 19.7,
  errorRate: 0.015,
  rejectedByStatus: [
    ["503", 2],
    ["other", 1],
  ],
  iterations: 200,
  droppedIterations: 0,
  eventLatency: [
    ["avg", 4.256],
    ["p(95)", 9.5],
  ],
  tokenRequests: 7,
  tokenRequestsByReason: [
    ["initial", 5],
    ["idle", 2],
  ],
  tokenRefreshes: 2,
  tokenFailures: 0,
  tokenLatency: [["avg", 3.1]],
  unexpectedExpiries: 0,
  idleOutlived: 0,
  idleExpiries: 0,
  extendedTokens: 5,
  idleSurvivals: 0,
};

export const heldVerdict: SlidingExpiryVerdict = {
  level: "held",
  reasons: ["5 tokens stayed valid while in use past expires_in + 0.2s after their issue."],
  unexpectedExpiries: 0,
  idleOutlived: 0,
  idleExpiries: 0,
  extendedTokens: 5,
  idleSurvivals: 0,
  expectedIdleExpiries: undefined,
};

export const keptUpGenerator: GeneratorVerdict = {
  limited: false,
  signals: [],
  measured: "k6 used 12 % of its 2 CPUs over its busiest 5 s.",
};

export const limitedGenerator: GeneratorVerdict = {
  limited: true,
  signals: [
    {
      kind: "cpu",
      remedy: "instances",
      short: "k6 at 96 % of its 2 CPUs",
      detail: "k6 used 96 % of the 2 CPUs it may run on over its busiest 5 s.",
    },
    {
      kind: "vus",
      remedy: "vus",
      short: "k6 out of VUs within the latency objectives",
      detail: 'k6 warned 3 times that it had no VU to start an iteration with ("Insufficient VUs").',
    },
  ],
  measured: "k6 used 96 % of its 2 CPUs over its busiest 5 s.",
};

/** A threshold that held: 1.5 % of events failed, where 5 % may. */
export const heldThreshold: ThresholdResult = {
  metric: "events_failed",
  expression: "rate<0.05",
  ok: true,
  observed: "rate=1.5%",
};

/** A latency threshold crossed: the events' p(95) was 9.5 ms, where 5 ms may be. */
export const crossedThreshold: ThresholdResult = {
  metric: "http_req_duration{endpoint:events}",
  expression: "p(95)<5",
  ok: false,
  observed: "p(95)=9.5ms",
};

/** The no-redirect threshold crossed with no value k6 could show: the one a ledger entry waives. */
export const redirectsThreshold: ThresholdResult = {
  metric: "redirects",
  expression: "count==0",
  ok: false,
  observed: undefined,
};

export const passedResult: LoadResult = {
  outcome: "passed",
  reason: undefined,
  failedThresholds: [],
  waivedThresholds: [],
  accepted: [],
  regressed: [],
  baseline: undefined,
};

/** A report renderer's input for a sustained run that passed, with any part replaced. */
export function reportInput(parts: Partial<ReportInput> = {}): ReportInput {
  return {
    context: sustainedReportContext,
    facts: loadFacts,
    thresholds: [],
    verdict: heldVerdict,
    generator: keptUpGenerator,
    result: passedResult,
    ...parts,
  };
}
