import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../core/index.ts";
import { displayPath } from "./display-path.ts";
import { describeFileError, fileErrorCode } from "./file-error.ts";
import { makeDirectory } from "./make-directory.ts";
import { prepareWritableDir } from "./writable-dir.ts";

/**
 * The file a run creates first in its report directory, exclusively: of two runs given one directory, only one can
 * create it, and a directory that holds it is known to hold a run's reports.
 */
export const RUN_CLAIM_FILE = ".event-harness-run";

function claimText(command: string): string {
  return `${JSON.stringify({ command, pid: process.pid, startedAt: new Date().toISOString() })}\n`;
}

function notWritable(option: string, dir: string, error: unknown, command: string): unknown {
  if (fileErrorCode(error) === undefined) return error;
  return new UsageError(
    "unwritable-path",
    `${option} ${displayPath(dir)} cannot be written to: ${describeFileError(error)}`,
    command,
  );
}

/**
 * Makes `dir` the report directory of this run alone, before anything is sent: it must be new or empty. The claim
 * file is created exclusively, so of two runs started together on one directory the second is refused (exit 2)
 * rather than mixing its files with the first's; a directory holding anything else is refused and left untouched,
 * so no file the harness did not write is overwritten or deleted.
 */
export async function claimReportDir(dir: string, option: string, command: string): Promise<string> {
  const full = path.resolve(dir);
  const refuse = (why: string) =>
    new UsageError(
      "invalid-config",
      `${option} ${displayPath(full)} ${why}: give a new or empty directory, so two runs never mix and no file is overwritten`,
      command,
    );
  try {
    await makeDirectory(full);
  } catch (error) {
    throw notWritable(option, full, error, command);
  }
  try {
    await writeFile(path.join(full, RUN_CLAIM_FILE), claimText(command), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw refuse(`holds another run's reports (its ${RUN_CLAIM_FILE})`);
    throw notWritable(option, full, error, command);
  }
  const others = (await readdir(full)).filter((name) => name !== RUN_CLAIM_FILE);
  if (others.length > 0) {
    // Only the claim goes: it is the one file here this run wrote.
    await rm(path.join(full, RUN_CLAIM_FILE), { force: true });
    throw refuse("exists and is not empty");
  }
  return full;
}

/**
 * Creates and claims a fresh report directory `name` under `parent` (the default when no --report-dir is given); a
 * second run in the same second gets a suffix rather than mixing reports.
 */
export async function createReportDir(parent: string, name: string, command: string): Promise<string> {
  const full = await prepareWritableDir(parent, "the default report directory", command);
  for (let attempt = 1; attempt <= 100; attempt += 1) {
    const dir = path.join(full, attempt === 1 ? name : `${name}-${attempt}`);
    try {
      await mkdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw notWritable("the default report directory", dir, error, command);
    }
    await writeFile(path.join(dir, RUN_CLAIM_FILE), claimText(command), { flag: "wx" });
    return dir;
  }
  throw new Error(`could not create a report directory under ${full}`);
}
