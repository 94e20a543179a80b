import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { ScenarioName } from "../../load/index.ts";
import { compactTimestamp } from "../compact-timestamp.ts";
import { prepareWritableDir } from "../writable-dir.ts";

/** Creates a fresh report directory; a second run in the same second gets a suffix rather than mixing reports. */
export async function createReportDir(scenario: ScenarioName, started: Date): Promise<string> {
  const parent = await prepareWritableDir(
    path.join("reports", "load"),
    "the default report directory",
    "load",
  );
  const base = `${scenario}-${compactTimestamp(started)}`;
  for (let attempt = 1; attempt <= 100; attempt += 1) {
    const dir = path.join(parent, attempt === 1 ? base : `${base}-${attempt}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error(`could not create a report directory under ${parent}`);
}
