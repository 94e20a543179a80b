import { stat } from "node:fs/promises";
import path from "node:path";

/** The names among `names` that are files in `dir`: a run lists only the reports it wrote. */
export async function existingFiles(dir: string, names: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    names.map(async (name) =>
      (await stat(path.join(dir, name)).catch(() => undefined))?.isFile() ? name : "",
    ),
  );
  return found.filter((name) => name !== "");
}
