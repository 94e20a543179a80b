import { rm } from "node:fs/promises";
import path from "node:path";

/** The files a run writes into its report directory: only these are scrubbed, or cleared before a rerun. */
export const REPORT_FILES = [
  "summary.json",
  "summary.md",
  "junit.xml",
  "dashboard.html",
  "run.json",
  "event-templates.json",
  "k6-options.json",
] as const;

export type ReportFile = (typeof REPORT_FILES)[number];

/** Removes a previous run's reports, so a reused --report-dir never mixes two runs. */
export async function clearReports(dir: string): Promise<void> {
  await Promise.all(REPORT_FILES.map((name) => rm(path.join(dir, name), { force: true })));
}
