import { countNoun } from "../index.ts";
import type { ReportContext } from "./report-context.ts";
import type { ReportFacts } from "./report-facts.ts";

/**
 * - `held`: the run put the rule to the test and it held: tokens in use stayed valid past expires_in + margin after
 *   their issue, none in use was rejected, and (idle-gap) every cycle's token also survived a gap over half of
 *   expires_in and expired after a long gap;
 * - `broken`: the target rejected a token in use, or accepted one left idle past expires_in;
 * - `inconclusive`: idle-gap saw fewer of its planned outcomes than cycles, without seeing a violation;
 * - `not-exercised`: no token lived long enough to tell sliding expiry from a lifetime fixed from issue.
 */
export type VerdictLevel = "held" | "broken" | "inconclusive" | "not-exercised";

export interface SlidingExpiryVerdict {
  readonly level: VerdictLevel;
  readonly reasons: readonly string[];
  readonly unexpectedExpiries: number;
  readonly idleOutlived: number;
  readonly idleExpiries: number;
  /** Tokens accepted expires_in + margin or longer after their issue. */
  readonly extendedTokens: number;
  /** Tokens accepted after idling more than half of expires_in + margin. */
  readonly idleSurvivals: number;
  /** How many of each idle-gap expects (one per cycle of every VU), when the scenario plans them. */
  readonly expectedIdleExpiries: number | undefined;
}

export function slidingExpiryVerdict(facts: ReportFacts, context: ReportContext): SlidingExpiryVerdict {
  const { unexpectedExpiries, idleOutlived, idleExpiries, extendedTokens, idleSurvivals } = facts;
  const expectedIdleExpiries = context.idleGap ? context.vus * context.idleGap.cycles : undefined;
  const margin = `${context.marginSeconds}s`;
  const base = {
    unexpectedExpiries,
    idleOutlived,
    idleExpiries,
    extendedTokens,
    idleSurvivals,
    expectedIdleExpiries,
  };

  const broken: string[] = [];
  const plan = context.idleGap;
  // Idle tokens behaving as planned while tokens in use die and none outlives its first lifetime: a fixed lifetime.
  const fixedFromIssue =
    plan !== undefined &&
    expectedIdleExpiries !== undefined &&
    idleSurvivals >= expectedIdleExpiries &&
    idleExpiries >= expectedIdleExpiries &&
    extendedTokens === 0;
  if (unexpectedExpiries > 0 && fixedFromIssue) {
    broken.push(
      `${countNoun(unexpectedExpiries, "token was", "tokens were")} rejected (401) although last used less than expires_in − ${margin} ago, ` +
        `and none was accepted expires_in + ${margin} or longer after its issue, while every cycle's token survived its idle gap of ` +
        `${plan.midGapSeconds}s and expired after its long gap as planned: a lifetime fixed from issue, not counted from the last use ` +
        "(spec, Authentication rule 6).",
    );
  } else if (unexpectedExpiries > 0) {
    broken.push(
      `${countNoun(unexpectedExpiries, "token was", "tokens were")} rejected (401) although last used less than expires_in − ${margin} ago: ` +
        "the lifetime is not counted from the last use (spec, Authentication rule 6).",
    );
  }
  if (idleOutlived > 0) {
    broken.push(
      `${countNoun(idleOutlived, "token was", "tokens were")} accepted after idling expires_in + ${margin} or longer: ` +
        "idle tokens do not expire (spec, Authentication rule 6).",
    );
  }
  if (broken.length > 0) return { ...base, level: "broken", reasons: broken };

  if (expectedIdleExpiries !== undefined && plan) {
    const of = `of ${expectedIdleExpiries}`;
    const missing: string[] = [];
    if (extendedTokens < expectedIdleExpiries) {
      missing.push(
        `only ${extendedTokens} ${of} tokens were seen accepted expires_in + ${margin} or longer after their issue.`,
      );
    }
    if (idleSurvivals < expectedIdleExpiries) {
      missing.push(
        `only ${idleSurvivals} ${of} tokens were seen accepted after an idle gap of ${plan.midGapSeconds}s (over half of expires_in).`,
      );
    }
    if (idleExpiries < expectedIdleExpiries) {
      missing.push(`only ${idleExpiries} ${of} long idle gaps ended in a confirmed expiry.`);
    }
    if (missing.length > 0) {
      return {
        ...base,
        level: "inconclusive",
        reasons: [...missing, `Were token or event requests failing, or slower than the margin (${margin})?`],
      };
    }
    return {
      ...base,
      level: "held",
      reasons: [
        `${expectedIdleExpiries === 1 ? "the one cycle's token" : `each of the ${expectedIdleExpiries} cycles' tokens`} survived an idle gap of ${plan.midGapSeconds}s (over half of expires_in), ` +
          `stayed valid while used every ${plan.shortGapSeconds}s until past expires_in + ${margin} after its issue, ` +
          `and expired after an idle gap of ${plan.longGapSeconds}s.`,
      ],
    };
  }

  if (extendedTokens === 0) return { ...base, level: "not-exercised", reasons: notExercised(context) };
  return {
    ...base,
    level: "held",
    reasons: [
      `${countNoun(extendedTokens, "token")} stayed valid while in use past expires_in + ${margin} after their issue, and no token ` +
        `in use was rejected over ${facts.eventsAccepted} accepted events; idle expiry itself is checked by the idle-gap scenario.`,
    ],
  };
}

/** Why no token could tell sliding from fixed expiry, and what run would. */
function notExercised(context: ReportContext): string[] {
  const unproven = "so a lifetime fixed from issue would have passed this run too";
  switch (context.clientModel) {
    case "token-per-iteration":
      return [
        `every iteration got its own token, ${unproven}: use --client-model sliding or refresh-on-401, or run idle-gap.`,
      ];
    case "cache-until-expiry":
      return [
        `the client replaces each token expires_in − ${context.marginSeconds}s after its issue, ${unproven}: ` +
          "use --client-model sliding or refresh-on-401, or run idle-gap.",
      ];
    default:
      break;
  }
  const expiresIn = context.expiresInSeconds;
  if (expiresIn === undefined) {
    return [
      `no token was accepted expires_in + ${context.marginSeconds}s or longer after its issue, ${unproven}.`,
    ];
  }
  const lifetime = Math.round((expiresIn + context.marginSeconds) * 1000) / 1000;
  const idle = Math.round((expiresIn - context.marginSeconds) * 1000) / 1000;
  return [
    `no token was accepted expires_in + margin (${lifetime}s) or longer after its issue, ${unproven}.`,
    `It takes tokens in use for longer than that: --duration ${Math.ceil(lifetime) + 1}s or longer, ` +
      `with each VU sending at least every ${idle}s (expires_in − margin); idle-gap tests the whole rule.`,
  ];
}
