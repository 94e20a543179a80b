import type { ReportFacts } from "../../reporting/load/index.ts";
import type { CapacityDigest } from "../../reporting/run/index.ts";

/** The facts of a 10 s load part at 19 accepted events/s on one token, nothing rejected, one idle token outlived. */
export const loadPartFacts: ReportFacts = {
  runSeconds: 10,
  warmUpSeconds: 0,
  loadSeconds: 10,
  eventsAccepted: 190,
  eventsRejected: 0,
  acceptedPerSecond: 19,
  errorRate: 0,
  rejectedByStatus: [],
  iterations: 190,
  droppedIterations: 0,
  eventLatency: [["p(95)", 40]],
  tokenRequests: 1,
  tokenRequestsByReason: [],
  tokenRefreshes: 0,
  tokenFailures: 0,
  tokenLatency: [],
  unexpectedExpiries: 0,
  idleOutlived: 1,
  idleExpiries: 0,
  extendedTokens: 0,
  idleSurvivals: 0,
};

/** A capacity part's digest that held 40 events/s and broke at 80, with no steps or objectives to show. */
export const capacityDigest: CapacityDigest = {
  verdictLine: undefined,
  outcome: "passed",
  held: 40,
  broken: 80,
  limitedAt: undefined,
  objectives: [],
  steps: [],
};
