import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../core/index.ts";
import { displayPath } from "./display-path.ts";
import { describeFileError, fileErrorCode } from "./file-error.ts";
import { makeDirectory } from "./make-directory.ts";

/**
 * Creates a report directory and writes (then removes) a file in it, before a command sends its first request: a
 * directory that cannot hold the reports is exit 2 with the path and why, not a run whose results are lost.
 */
export async function prepareWritableDir(dir: string, option: string, command: string): Promise<string> {
  const full = path.resolve(dir);
  try {
    await makeDirectory(full);
    const probe = path.join(
      full,
      `.event-harness-write-test-${process.pid}-${randomBytes(4).toString("hex")}`,
    );
    await writeFile(probe, "", { flag: "wx" });
    await rm(probe, { force: true });
  } catch (error) {
    if (fileErrorCode(error) === undefined) throw error;
    throw new UsageError(
      "unwritable-path",
      `${option} ${displayPath(full)} cannot be written to: ${describeFileError(error)}`,
      command,
    );
  }
  return full;
}
