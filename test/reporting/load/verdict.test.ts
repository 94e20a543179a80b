import { describe, expect, it } from "vitest";
import type { ReportContext, ReportFacts } from "../../../reporting/load/index.ts";
import { slidingExpiryVerdict } from "../../../reporting/load/verdict.ts";
import { idleGapPlan as gaps } from "../../support/idle-gap-plan.ts";
import { loadFacts } from "../../support/load-report-input.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

const RULE = "(spec, Authentication rule 6).";
/** idle-gap with 5 VUs of 2 cycles each: 10 of every planned outcome expected. */
const idleGap: ReportContext = {
  ...sustainedReportContext,
  scenario: "idle-gap",
  rate: undefined,
  idleGap: gaps,
};
const facts = (counts: Partial<ReportFacts>): ReportFacts => ({
  ...loadFacts,
  unexpectedExpiries: 0,
  idleOutlived: 0,
  idleExpiries: 0,
  extendedTokens: 0,
  idleSurvivals: 0,
  ...counts,
});
const allPlanned = { idleExpiries: 10, extendedTokens: 10, idleSurvivals: 10 };

describe("slidingExpiryVerdict of an open scenario", () => {
  it("holds when tokens in use outlived expires_in + margin and none was rejected", () => {
    const verdict = slidingExpiryVerdict(facts({ extendedTokens: 5 }), sustainedReportContext);
    expect(verdict).toMatchObject({ level: "held", extendedTokens: 5, expectedIdleExpiries: undefined });
    expect(verdict.reasons).toEqual([
      "5 tokens stayed valid while in use past expires_in + 0.2s after their issue, and no token in use was rejected over 197 accepted events; idle expiry itself is checked by the idle-gap scenario.",
    ]);
  });

  it("is broken by a token rejected in use, and by one accepted after idling past its lifetime", () => {
    const verdict = slidingExpiryVerdict(
      facts({ unexpectedExpiries: 2, idleOutlived: 1, extendedTokens: 5 }),
      sustainedReportContext,
    );
    expect(verdict.level).toBe("broken");
    expect(verdict.reasons).toEqual([
      `2 tokens were rejected (401) although last used less than expires_in − 0.2s ago: the lifetime is not counted from the last use ${RULE}`,
      `1 token was accepted after idling expires_in + 0.2s or longer: idle tokens do not expire ${RULE}`,
    ]);
  });

  it("was not exercised when no token lived past expires_in + margin, and says how long a run would take", () => {
    const verdict = slidingExpiryVerdict(facts({}), sustainedReportContext);
    expect(verdict.level).toBe("not-exercised");
    expect(verdict.reasons).toEqual([
      "no token was accepted expires_in + margin (2.2s) or longer after its issue, so a lifetime fixed from issue would have passed this run too.",
      "It takes tokens in use for longer than that: --duration 4s or longer, with each VU sending at least every 1.8s (expires_in − margin); idle-gap tests the whole rule.",
    ]);
    const unknown = slidingExpiryVerdict(facts({}), {
      ...sustainedReportContext,
      expiresInSeconds: undefined,
    });
    expect(unknown.reasons).toEqual([
      "no token was accepted expires_in + 0.2s or longer after its issue, so a lifetime fixed from issue would have passed this run too.",
    ]);
  });

  it("was not exercised by a client that never keeps a token past its first lifetime, and names one that would", () => {
    const perIteration = slidingExpiryVerdict(facts({}), {
      ...sustainedReportContext,
      clientModel: "token-per-iteration",
    });
    expect(perIteration.reasons).toEqual([
      "every iteration got its own token, so a lifetime fixed from issue would have passed this run too: use --client-model sliding or refresh-on-401, or run idle-gap.",
    ]);
    const cache = slidingExpiryVerdict(facts({}), {
      ...sustainedReportContext,
      clientModel: "cache-until-expiry",
    });
    expect(cache.level).toBe("not-exercised");
    expect(cache.reasons[0]).toMatch(/^the client replaces each token expires_in − 0\.2s after its issue, /);
  });
});

describe("slidingExpiryVerdict of idle-gap", () => {
  it("holds when every cycle's token survived its mid gap, was used past its lifetime, and expired after its long gap", () => {
    const verdict = slidingExpiryVerdict(facts(allPlanned), idleGap);
    expect(verdict).toMatchObject({ level: "held", expectedIdleExpiries: 10 });
    expect(verdict.reasons).toEqual([
      "each of the 10 cycles' tokens survived an idle gap of 1.4s (over half of expires_in), stayed valid while used every 0.5s until past expires_in + 0.2s after its issue, and expired after an idle gap of 3.2s.",
    ]);
  });

  it("is inconclusive when fewer planned outcomes than cycles were seen, naming each one short", () => {
    const verdict = slidingExpiryVerdict(
      facts({ idleExpiries: 9, extendedTokens: 10, idleSurvivals: 7 }),
      idleGap,
    );
    expect(verdict.level).toBe("inconclusive");
    expect(verdict.reasons).toEqual([
      "only 7 of 10 tokens were seen accepted after an idle gap of 1.4s (over half of expires_in).",
      "only 9 of 10 long idle gaps ended in a confirmed expiry.",
      "Were token or event requests failing, or slower than the margin (0.2s)?",
    ]);
  });

  it("recognises a lifetime fixed from issue: idle tokens as planned, tokens in use rejected, none extended", () => {
    const verdict = slidingExpiryVerdict(
      facts({ unexpectedExpiries: 10, idleExpiries: 10, idleSurvivals: 10, extendedTokens: 0 }),
      idleGap,
    );
    expect(verdict.level).toBe("broken");
    expect(verdict.reasons).toEqual([
      "10 tokens were rejected (401) although last used less than expires_in − 0.2s ago, and none was accepted expires_in + 0.2s or longer after its issue, while every cycle's token survived its idle gap of 1.4s and expired after its long gap as planned: a lifetime fixed from issue, not counted from the last use (spec, Authentication rule 6).",
    ]);
    const oneExtended = slidingExpiryVerdict(
      facts({ unexpectedExpiries: 10, idleExpiries: 10, idleSurvivals: 10, extendedTokens: 1 }),
      idleGap,
    );
    expect(oneExtended.reasons[0]).toMatch(/ago: the lifetime is not counted from the last use/);
  });
});
