import type { LoadResult, ReportAddition, ReportContext, RunEnding } from "../../reporting/load/index.ts";

/** What running k6 left for the record: how it ended, what to render and what run.json and the console say of it. */
export interface LoadExecution {
  readonly ending: RunEnding;
  /** The context the reports are rendered with; undefined when there is nothing to render them from. */
  readonly context: ReportContext | undefined;
  /** What k6 did, recorded in run.json after the result. */
  readonly facts: Readonly<Record<string, unknown>>;
  /** What the baseline comparison adds to the reports, and its console text (with --baseline, finished runs). */
  readonly compared: { readonly addition: ReportAddition; readonly text: string } | undefined;
  /** The reports the last line names, when they were written. */
  readonly listed: readonly string[];
  /** Added to the line that names the reports. */
  readonly reportsNote: string;
  /** The harness's last word on a run that did not pass, given its verdict; undefined when it has none. */
  closing(verdict: LoadResult): string | undefined;
}
