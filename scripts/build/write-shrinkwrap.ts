// `prepack`: writes npm-shrinkwrap.json, the production tree of package-lock.json, for the tarball to carry;
// `postpack` (--remove) deletes it again, since in the repository it would take the place of package-lock.json.
import { readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseLock, shrinkwrapOf } from "./pinned-tree.ts";

const root = new URL("../../", import.meta.url);
const shrinkwrap = fileURLToPath(new URL("npm-shrinkwrap.json", root));
if (process.argv.includes("--remove")) {
  await rm(shrinkwrap, { force: true });
} else {
  const lock = parseLock(JSON.parse(await readFile(new URL("package-lock.json", root), "utf8")));
  await writeFile(shrinkwrap, `${JSON.stringify(shrinkwrapOf(lock), null, 2)}\n`);
  process.stdout.write("wrote npm-shrinkwrap.json (the production tree of package-lock.json)\n");
}
