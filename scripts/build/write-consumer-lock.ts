// Writes the example consumer directory's package-lock.json from package-lock.json's production tree;
// test/scripts/build/pinned-tree.test.ts fails until it is run after a dependency or the version changes.
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { consumerLockOf, parseLock } from "./pinned-tree.ts";

/** The consumer directory a team copies, beside the tarball: its package.json names the tarball. */
export const CONSUMER_DIR = "examples/consumer/ci/event-harness";

export async function expectedConsumerLock(): Promise<string> {
  const root = new URL("../../", import.meta.url);
  const lock = parseLock(JSON.parse(await readFile(new URL("package-lock.json", root), "utf8")));
  const consumer = JSON.parse(await readFile(new URL(`${CONSUMER_DIR}/package.json`, root), "utf8"));
  return `${JSON.stringify(consumerLockOf(lock, consumer, "event-harness"), null, 2)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(
    new URL(`../../${CONSUMER_DIR}/package-lock.json`, import.meta.url),
    await expectedConsumerLock(),
  );
  process.stdout.write(`wrote ${CONSUMER_DIR}/package-lock.json\n`);
}
