import { describe, expect, it } from "vitest";
import { EVENT_DURATION, EXPIRY, METRIC, planIdleGaps } from "../../../load/index.ts";
import type { ReportContext, SummaryData } from "../../../reporting/load/index.ts";
import { renderReports } from "../../../reporting/load/index.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

type Metric = SummaryData["metrics"][string];
const counter = (count: number): Metric => ({
  type: "counter",
  contains: "default",
  values: { count, rate: 1 },
});

/** idle-gap, 2 VUs × 2 cycles: 4 of each planned outcome. */
const context: ReportContext = {
  ...sustainedReportContext,
  scenario: "idle-gap",
  vus: 2,
  rate: undefined,
  idleGap: planIdleGaps(5, 0.5, undefined),
  marginSeconds: 0.5,
};

function verdict(counts: Partial<Record<keyof typeof EXPIRY, number>>) {
  const metrics: Record<string, Metric> = {
    [METRIC.eventsFailed]: { type: "rate", contains: "default", values: { rate: 0, passes: 0, fails: 66 } },
    [EVENT_DURATION]: { type: "trend", contains: "time", values: { "p(95)": 88 } },
  };
  for (const [kind, count] of Object.entries(counts))
    metrics[EXPIRY[kind as keyof typeof EXPIRY]] = counter(count);
  return renderReports({ state: { testRunDurationMs: 28_000 }, metrics }, context).input.verdict;
}

describe("idle-gap's counts of a lifetime fixed from issue", () => {
  it("are named so: idle and survived as planned, extended 0, tokens in use rejected", () => {
    // What `load idle-gap --sandbox-fault expiry-fixed` counts.
    const fixed = verdict({ idle: 4, survived: 4, extended: 0, unexpected: 4, outlived: 0 });
    expect(fixed.level).toBe("broken");
    expect(fixed.reasons[0]).toBe(
      "4 tokens were rejected (401) although last used less than expires_in − 0.5s ago, and none was accepted expires_in + 0.5s or longer after its issue, while every cycle's token survived its idle gap of 3.5s and expired after its long gap as planned: a lifetime fixed from issue, not counted from the last use (spec, Authentication rule 6).",
    );
  });

  it("are not, when idle tokens did not behave as planned or a token outlived its first lifetime", () => {
    for (const counts of [
      { idle: 4, survived: 2, extended: 0, unexpected: 4 },
      { idle: 4, survived: 4, extended: 1, unexpected: 3 },
    ]) {
      const other = verdict(counts);
      expect(other.level).toBe("broken");
      expect(other.reasons.join(" ")).not.toContain("fixed from issue");
      expect(other.reasons[0]).toContain("the lifetime is not counted from the last use");
    }
  });
});
