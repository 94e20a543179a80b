import { describe, expect, it } from "vitest";
import { EVENT_DURATION, EXPIRY, METRIC, planIdleGaps } from "../../../load/index.ts";
import type { ReportContext, SummaryData } from "../../../reporting/load/index.ts";
import { renderReports } from "../../../reporting/load/index.ts";
import { describeLoad } from "../../../reporting/load/summary-markdown.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

type Metric = SummaryData["metrics"][string];

function counter(count: number): Metric {
  return { type: "counter", contains: "default", values: { count, rate: count / 10 } };
}

/** One VU, one cycle of idle-gap: every count the reports say is one. */
const context: ReportContext = {
  ...sustainedReportContext,
  scenario: "idle-gap",
  vus: 1,
  rate: undefined,
  idleGap: { ...planIdleGaps(2, 0.2, undefined), cycles: 1 },
};

function summary(metrics: Record<string, Metric>): SummaryData {
  return {
    state: { testRunDurationMs: 12_000 },
    metrics: {
      [METRIC.eventsFailed]: { type: "rate", contains: "default", values: { rate: 0, passes: 0, fails: 10 } },
      [METRIC.tokenRequests]: counter(2),
      [EVENT_DURATION]: { type: "trend", contains: "time", values: { "p(95)": 7.5 } },
      [EXPIRY.unexpected]: counter(0),
      [EXPIRY.outlived]: counter(0),
      ...metrics,
    },
  };
}

describe("a load report of one VU and one cycle", () => {
  it("describes the load in the singular", () => {
    expect(describeLoad(context)).toMatch(/^1 cycle of gaps .*, 1 VU/);
  });

  it("says the one cycle's token held, and one rejected token in the singular", () => {
    const one = { [EXPIRY.idle]: counter(1), [EXPIRY.extended]: counter(1), [EXPIRY.survived]: counter(1) };
    const held = renderReports(summary(one), context).input.verdict;
    expect(held.level).toBe("held");
    expect(held.reasons[0]).toMatch(/^the one cycle's token survived an idle gap/);
    const broken = renderReports(summary({ ...one, [EXPIRY.unexpected]: counter(1) }), context).input.verdict;
    expect(broken.reasons[0]).toMatch(/^1 token was rejected \(401\)/);
  });
});
