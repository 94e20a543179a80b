import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Redactor } from "../../contracts/index.ts";
import type { PartDetails } from "./part-details.ts";
import { readPartDetails } from "./part-details.ts";
import { renderHtmlReport } from "./render-html-report.ts";
import type { RunOutcome } from "./run-outcome.ts";
import { renderRunSummaryMarkdown } from "./run-summary-markdown.ts";

export const RUN_REPORT_FILES = ["index.html", "summary.md", "run.json"] as const;
/** Files the final sweep reads as text; binary and gzipped files are left to the part that wrote them. */
const TEXT_FILE = /\.(html|json|md|xml|txt|csv|ndjson|log)$/;
/** The sweep looks at most this many files, two levels deep: a run writes a few dozen. */
const MAX_SWEEP_FILES = 2000;

/**
 * Redacts every text file under the run directory in place and returns the ones that held a secret. Each part
 * redacts its own files; this is the last line of defence, and a non-empty result is worth a warning.
 */
export async function sweepSecrets(runDir: string, redactor: Redactor): Promise<string[]> {
  const leaked: string[] = [];
  const files: string[] = [];
  for (const entry of await readdir(runDir, { withFileTypes: true })) {
    if (entry.isFile()) files.push(entry.name);
    else if (entry.isDirectory()) {
      for (const inner of await readdir(path.join(runDir, entry.name), { withFileTypes: true })) {
        if (inner.isFile()) files.push(path.join(entry.name, inner.name));
      }
    }
    if (files.length > MAX_SWEEP_FILES) break;
  }
  for (const file of files.slice(0, MAX_SWEEP_FILES).filter((name) => TEXT_FILE.test(name))) {
    const full = path.join(runDir, file);
    const text = await readFile(full, "utf8");
    const clean = redactor.redact(text);
    if (clean !== text) {
      await writeFile(full, clean);
      leaked.push(file);
    }
  }
  return leaked;
}

/** Writes index.html, summary.md and run.json of a run from what its parts left in their folders. */
export async function writeRunReport(
  runDir: string,
  run: RunOutcome,
  redactor: Redactor,
  reportPath: string,
): Promise<{ readonly parts: readonly PartDetails[]; readonly files: readonly string[] }> {
  // Redacted on the way in as well as on the way out: escaping could otherwise hide a secret from the redactor.
  const parts = (await Promise.all(run.parts.map((part) => readPartDetails(runDir, part)))).map((part) =>
    redactor.redactDeep(part),
  );
  const summaries = new Map<string, string>();
  for (const part of parts) {
    const text = await readFile(path.join(runDir, part.outcome.id, "summary.md"), "utf8").catch(
      () => undefined,
    );
    if (text !== undefined) summaries.set(part.outcome.id, redactor.redact(text));
  }
  const outputs: Array<[string, string]> = [
    ["index.html", renderHtmlReport(run, parts)],
    ["summary.md", renderRunSummaryMarkdown(run, parts, summaries, reportPath)],
    ["run.json", `${JSON.stringify(run, null, 2)}\n`],
  ];
  await Promise.all(outputs.map(([name, text]) => writeFile(path.join(runDir, name), redactor.redact(text))));
  return { parts, files: outputs.map(([name]) => path.join(runDir, name)) };
}
