import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";

/** Paths a user may name where the harness expects a small file, each the way it hangs or floods a naive reader. */
export const HOSTILE_FILE_KINDS = ["fifo", "dev-zero", "oversized", "directory"] as const;
export type HostileFileKind = (typeof HOSTILE_FILE_KINDS)[number];

/** Past every cap of the harness (4 MiB for settings, 16 MiB for run records), yet sparse: it takes no disk. */
const OVERSIZED_BYTES = 64 * 1024 * 1024 + 1;

/** What the harness must say of each, in the sentence that names the file. */
export const HOSTILE_FILE_WORDS: Readonly<Record<HostileFileKind, RegExp>> = {
  fifo: /it is a FIFO \(named pipe\), not a regular file/,
  "dev-zero": /it is a character device, not a regular file/,
  oversized: /it holds more than (4|16) MiB/,
  directory: /it is a directory, not a file/,
};

/**
 * Makes one under `dir` (a FIFO nobody writes to, a 64 MiB sparse file, a directory) or names /dev/zero, which never
 * ends. The FIFO is made with mkfifo(1): Node has no call for it.
 */
export async function hostileFile(dir: string, kind: HostileFileKind, name: string = kind): Promise<string> {
  const file = path.join(dir, name);
  switch (kind) {
    case "fifo":
      execFileSync("mkfifo", [file]);
      return file;
    case "dev-zero":
      return "/dev/zero";
    case "oversized": {
      const handle = await open(file, "w");
      await handle.truncate(OVERSIZED_BYTES);
      await handle.close();
      return file;
    }
    case "directory":
      await mkdir(file);
      return file;
  }
}

/**
 * Lets a reader that blocked on the FIFO go (a writer opens it and closes at once, so the reader sees its end): a
 * reader that does open a FIFO would otherwise hold a worker thread for ever.
 */
export function releaseFifo(file: string): void {
  try {
    closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: nobody is reading it.
  }
}
