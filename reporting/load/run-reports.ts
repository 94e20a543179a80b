import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Ledger } from "../accepted/ledger.ts";
import type { ReportAddition } from "./render-reports.ts";
import { renderReports } from "./render-reports.ts";
import type { ReportContext } from "./report-context.ts";
import type { LoadResult, RunEnding } from "./run-result.ts";
import type { SummaryData, ThresholdResult } from "./summary-data.ts";

export interface RunReports {
  /** The end-of-test summary for the terminal: thresholds, the sliding-expiry verdict, throughput. */
  readonly text: string;
  readonly failedThresholds: readonly ThresholdResult[];
  readonly result: LoadResult;
}

/**
 * Renders a run's reports in Node from the end-of-test data k6 wrote to `summary.json` (the script only dumps it,
 * so no VU carries the report code): summary.json gains the harness's context and verdict, and summary.md and
 * junit.xml are written beside it, each stating the verdict `ending` allows. Undefined when k6 wrote no summary
 * (it failed or was stopped before the end of the test).
 */
export async function renderRunReports(
  dir: string,
  context: ReportContext,
  ending?: RunEnding,
  addition?: ReportAddition,
  ledger?: Ledger,
): Promise<RunReports | undefined> {
  const summaryFile = path.join(dir, "summary.json");
  let data: SummaryData;
  try {
    data = JSON.parse(await readFile(summaryFile, "utf8")) as SummaryData;
  } catch {
    return undefined;
  }
  const reports = renderReports(data, context, ending, addition, ledger);
  await Promise.all([
    writeFile(summaryFile, reports.summaryJson),
    writeFile(path.join(dir, "junit.xml"), reports.junit),
    writeFile(path.join(dir, "summary.md"), reports.markdown),
  ]);
  return {
    text: reports.text,
    failedThresholds: reports.result.failedThresholds,
    result: reports.result,
  };
}
