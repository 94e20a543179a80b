import { renderJunit } from "./junit.ts";
import type { ReportInput } from "./markdown.ts";
import { renderMarkdown } from "./markdown.ts";
import type { ReportContext } from "./report-context.ts";
import { reportFacts } from "./report-facts.ts";
import type { SummaryData } from "./summary-data.ts";
import { thresholdResults } from "./summary-data.ts";
import { renderText } from "./text.ts";
import { slidingExpiryVerdict } from "./verdict.ts";

export interface RenderedReports {
  readonly input: ReportInput;
  /** k6's summary data with the harness's context and verdict added under `harness`. */
  readonly summaryJson: string;
  readonly junit: string;
  readonly markdown: string;
  readonly text: string;
}

/** Renders every report from k6's end-of-test data; pure, so it runs in k6's handleSummary and in unit tests. */
export function renderReports(data: SummaryData, context: ReportContext): RenderedReports {
  const facts = reportFacts(data, context.warmUpSeconds);
  const input: ReportInput = {
    context,
    facts,
    thresholds: thresholdResults(data),
    verdict: slidingExpiryVerdict(facts, context),
  };
  const summary = {
    ...data,
    harness: {
      context,
      verdict: input.verdict,
      failedThresholds: input.thresholds.filter((t) => !t.ok),
    },
  };
  return {
    input,
    summaryJson: `${JSON.stringify(summary, null, 2)}\n`,
    junit: renderJunit(input),
    markdown: renderMarkdown(input),
    text: renderText(input),
  };
}
