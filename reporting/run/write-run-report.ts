import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { renderCombinedJunit } from "./combined-junit.ts";
import type { PartDetails } from "./part-details.ts";
import { readPartDetails } from "./part-details.ts";
import { renderHtmlReport } from "./render-html-report.ts";
import type { RunOutcome } from "./run-outcome.ts";
import { renderRunSummaryMarkdown } from "./run-summary-markdown.ts";

export const RUN_REPORT_FILES = ["index.html", "summary.md", "junit.xml", "run.json"] as const;

/**
 * Writes index.html, summary.md, the combined junit.xml and run.json of a run from what its parts left in their folders. Each part wrote
 * its files from redacted values and inert target text; nothing here rewrites text, so the run's words stay whole.
 */
export async function writeRunReport(
  runDir: string,
  run: RunOutcome,
  reportPath: string,
): Promise<{ readonly parts: readonly PartDetails[]; readonly files: readonly string[] }> {
  const parts = await Promise.all(run.parts.map((part) => readPartDetails(runDir, part)));
  const summaries = new Map<string, string>();
  for (const part of parts) {
    const text = await readFile(path.join(runDir, part.outcome.id, "summary.md"), "utf8").catch(
      () => undefined,
    );
    if (text !== undefined) summaries.set(part.outcome.id, text);
  }
  const junits = await Promise.all(
    run.parts.map(async (part) => ({
      part,
      xml: await readFile(path.join(runDir, part.id, "junit.xml"), "utf8").catch(() => undefined),
    })),
  );
  const outputs: Array<[string, string]> = [
    ["junit.xml", renderCombinedJunit(run, junits)],
    ["index.html", renderHtmlReport(run, parts)],
    ["summary.md", renderRunSummaryMarkdown(run, parts, summaries, reportPath)],
    ["run.json", `${JSON.stringify(run, null, 2)}\n`],
  ];
  await Promise.all(outputs.map(([name, text]) => writeFile(path.join(runDir, name), text)));
  return { parts, files: outputs.map(([name]) => path.join(runDir, name)) };
}
