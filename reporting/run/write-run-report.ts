import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { renderCombinedJunit } from "./combined-junit.ts";
import type { PartLead } from "./failure-leads.ts";
import { failureLeads } from "./failure-leads.ts";
import type { PartDetails } from "./part-details.ts";
import { readPartDetails } from "./part-details.ts";
import { partGate } from "./part-gate.ts";
import { renderHtmlReport } from "./render-html-report.ts";
import type { RunOutcome } from "./run-outcome.ts";
import { renderRunSummaryMarkdown } from "./run-summary-markdown.ts";
import type { VerdictClauses } from "./verdict-clauses.ts";
import { verdictClauses, verdictLineOf } from "./verdict-clauses.ts";

export const RUN_REPORT_FILES = ["index.html", "summary.md", "junit.xml", "run.json"] as const;

/**
 * Writes index.html, summary.md, the combined junit.xml and run.json of a run from what its parts left in their folders. Each part wrote
 * its files from redacted values and inert target text; nothing here rewrites text, so the run's words stay whole.
 */
export async function writeRunReport(
  runDir: string,
  outcome: RunOutcome,
  reportPath: string,
): Promise<{
  /** The run with each part's gate and the verdict line. */
  readonly run: RunOutcome;
  readonly parts: readonly PartDetails[];
  /** The verdict line in its pieces, for the console. */
  readonly clauses: VerdictClauses;
  /** Every part that did not pass, with what failed in it and where its evidence is, failed parts first. */
  readonly leads: readonly PartLead[];
  readonly files: readonly string[];
}> {
  const read = await Promise.all(outcome.parts.map((part) => readPartDetails(runDir, part)));
  // Each part's gate, from its own reports, goes into run.json, the console's Verdict block and summary.md's top.
  const parts = read.map((details) => {
    const gate = partGate(details);
    return gate === undefined ? details : { ...details, outcome: { ...details.outcome, gate } };
  });
  const clauses = verdictClauses(outcome.verdict, parts);
  // A target that could not be tested ran no part: its one reason, which every output states, is the lead.
  const leads = failureLeads(parts).filter(
    (lead) => outcome.couldNotTest === undefined || lead.part.verdict !== "skipped",
  );
  const run: RunOutcome = {
    ...outcome,
    verdictLine: verdictLineOf(clauses),
    parts: parts.map((p) => p.outcome),
  };
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
    ["index.html", renderHtmlReport(run, parts, leads, clauses.staleWarning)],
    ["summary.md", renderRunSummaryMarkdown(run, parts, summaries, reportPath, leads, clauses.staleWarning)],
    ["run.json", `${JSON.stringify(run, null, 2)}\n`],
  ];
  await Promise.all(outputs.map(([name, text]) => writeFile(path.join(runDir, name), text)));
  return { run, parts, clauses, leads, files: outputs.map(([name]) => path.join(runDir, name)) };
}
