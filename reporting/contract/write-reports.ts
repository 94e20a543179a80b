import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderJunitXml } from "./junit-xml.ts";
import { renderResultsJson } from "./results-json.ts";
import type { ContractRun } from "./run-summary.ts";
import { renderSummaryMarkdown } from "./summary-markdown.ts";

export const REPORT_FILES = ["results.json", "junit.xml", "summary.md"] as const;

/**
 * Writes the three report files as rendered: a run's values were redacted where they were captured (evidence,
 * quotes in messages), so no pass over the written text could touch the harness's own words.
 */
export async function writeContractReports(run: ContractRun, directory: string): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  const files: Array<[string, string]> = [
    ["results.json", renderResultsJson(run)],
    ["junit.xml", renderJunitXml(run)],
    ["summary.md", renderSummaryMarkdown(run)],
  ];
  await Promise.all(files.map(([name, text]) => writeFile(join(directory, name), text)));
  return files.map(([name]) => join(directory, name));
}
