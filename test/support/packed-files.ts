import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The files `npm pack` would ship, as paths relative to the repository (without running the build). */
export async function packedFiles(): Promise<Set<string>> {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
  });
  const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  return new Set(pack?.files.map((file) => file.path));
}
