import type { ReportContext } from "./report-context.ts";
import type { ReportFacts } from "./report-facts.ts";

/**
 * - `held`: no token was rejected while sliding use kept it valid, and (idle-gap) every long gap ended in an expiry;
 * - `broken`: the target rejected a token in use, or accepted one left idle past expires_in;
 * - `inconclusive`: idle-gap saw fewer expiries than long gaps, without seeing a token outlive its gap;
 * - `not-exercised`: no token was reused, so sliding expiry was never put to the test.
 */
export type VerdictLevel = "held" | "broken" | "inconclusive" | "not-exercised";

export interface SlidingExpiryVerdict {
  readonly level: VerdictLevel;
  readonly reasons: readonly string[];
  readonly unexpectedExpiries: number;
  readonly idleOutlived: number;
  readonly idleExpiries: number;
  /** Confirmed idle expiries idle-gap expects (one per long gap), when the scenario plans them. */
  readonly expectedIdleExpiries: number | undefined;
}

export function slidingExpiryVerdict(facts: ReportFacts, context: ReportContext): SlidingExpiryVerdict {
  const { unexpectedExpiries, idleOutlived, idleExpiries } = facts;
  const expectedIdleExpiries = context.idleGap ? context.vus * context.idleGap.cycles : undefined;
  const margin = `${context.marginSeconds}s`;
  const base = { unexpectedExpiries, idleOutlived, idleExpiries, expectedIdleExpiries };

  const broken: string[] = [];
  if (unexpectedExpiries > 0) {
    broken.push(
      `${unexpectedExpiries} token(s) were rejected (401) although last used less than expires_in − ${margin} ago: ` +
        "the lifetime is not counted from the last use (spec, Authentication rule 6).",
    );
  }
  if (idleOutlived > 0) {
    broken.push(
      `${idleOutlived} token(s) were accepted after idling expires_in + ${margin} or longer: ` +
        "idle tokens do not expire (spec, Authentication rule 6).",
    );
  }
  if (broken.length > 0) return { ...base, level: "broken", reasons: broken };

  if (expectedIdleExpiries !== undefined && context.idleGap) {
    const gaps = `${context.idleGap.shortGapSeconds}s / ${context.idleGap.longGapSeconds}s`;
    if (idleExpiries < expectedIdleExpiries) {
      return {
        ...base,
        level: "inconclusive",
        reasons: [
          `only ${idleExpiries} of ${expectedIdleExpiries} long idle gaps ended in a confirmed expiry ` +
            "(were token or event requests failing?).",
        ],
      };
    }
    return {
      ...base,
      level: "held",
      reasons: [
        `tokens survived every short gap and expired after each of the ${expectedIdleExpiries} long gaps ` +
          `(short/long gap ${gaps}).`,
      ],
    };
  }

  const uses = facts.eventsAccepted;
  const tokens = facts.tokenRequests;
  if (context.clientModel === "token-per-iteration" || uses <= tokens) {
    return {
      ...base,
      level: "not-exercised",
      reasons: ["tokens were hardly reused, so sliding expiry was not put to the test (run idle-gap)."],
    };
  }
  return {
    ...base,
    level: "held",
    reasons: [
      `no token in use was rejected over ${uses} accepted events with ${tokens} token(s); ` +
        "idle expiry itself is checked by the idle-gap scenario.",
    ],
  };
}
