import { readdir } from "node:fs/promises";
import path from "node:path";

/** The files a run writes into its report directory: only these are scrubbed. */
export const REPORT_FILES = [
  "summary.json",
  "summary.md",
  "junit.xml",
  "dashboard.html",
  "run.json",
  "event-templates.json",
  "k6-options.json",
  "k6.log",
  "baseline.json",
  "baseline-comparison.json",
] as const;

export type ReportFile = (typeof REPORT_FILES)[number];

/** Each k6 instance of a run split over several (`--instances`) writes into one of these subdirectories. */
export const INSTANCE_DIR = /^instance-\d+$/;

/** The instance subdirectories of a report directory. */
export async function instanceDirs(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => INSTANCE_DIR.test(name)).map((name) => path.join(dir, name));
}
