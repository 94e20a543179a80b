import { mkdir, stat } from "node:fs/promises";
import path from "node:path";

function notADirectory(dir: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: "ENOTDIR", path: dir });
}

/**
 * Creates `dir` and its missing parents one level at a time, in as many steps as the path has names. Node's own
 * `mkdir(dir, { recursive: true })` never returns where a file system answers ENOENT for a new entry of an existing
 * directory (/proc, /sys): it retries in native code at full CPU, deaf to SIGINT and SIGTERM.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  let current = path.resolve(dir);
  while (true) {
    const found = await stat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (found !== undefined) {
      if (!found.isDirectory()) throw notADirectory(current);
      break;
    }
    missing.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const next of missing.reverse()) {
    try {
      await mkdir(next);
    } catch (error) {
      // Another process made it meanwhile: fine, if it is a directory.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (!(await stat(next)).isDirectory()) throw notADirectory(next);
    }
  }
}
