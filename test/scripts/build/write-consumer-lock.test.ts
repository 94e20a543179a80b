import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CONSUMER_DIR, expectedConsumerLock } from "../../../scripts/build/write-consumer-lock.ts";

interface LockEntry {
  readonly version?: string;
  readonly resolved?: string;
  readonly dev?: boolean;
  readonly dependencies?: Record<string, string>;
}
interface Lock {
  readonly name?: string;
  readonly lockfileVersion: number;
  readonly packages: Record<string, LockEntry>;
}

const root = new URL("../../../", import.meta.url);
const readJson = async <T>(file: string): Promise<T> =>
  JSON.parse(await readFile(new URL(file, root), "utf8")) as T;

describe("expectedConsumerLock", () => {
  it("is a lockfile v3 for the consumer directory, as npm writes it (two-space JSON and a final newline)", async () => {
    const text = await expectedConsumerLock();
    const lock = JSON.parse(text) as Lock;
    expect(text).toBe(`${JSON.stringify(lock, null, 2)}\n`);
    expect(lock.lockfileVersion).toBe(3);
    const consumer = await readJson<{ dependencies: Record<string, string> }>(`${CONSUMER_DIR}/package.json`);
    expect(lock.packages[""]?.dependencies).toEqual(consumer.dependencies);
  });

  it("installs the tarball with the harness's own dependencies, at the versions its package-lock.json pins", async () => {
    const lock = JSON.parse(await expectedConsumerLock()) as Lock;
    const own = await readJson<{ version: string; dependencies: Record<string, string> }>("package.json");
    const tarball = lock.packages["node_modules/event-api-harness"];
    expect(tarball?.version).toBe(own.version);
    expect(tarball?.resolved).toBe(`file:event-api-harness-${own.version}.tgz`);
    expect(tarball?.dependencies).toEqual(own.dependencies);
    const pinned = await readJson<Lock>("package-lock.json");
    for (const name of Object.keys(own.dependencies)) {
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(
        pinned.packages[`node_modules/${name}`]?.version,
      );
    }
  });

  it("holds none of the harness's development tools", async () => {
    const lock = JSON.parse(await expectedConsumerLock()) as Lock;
    // Biome is a development tool no production dependency needs.
    expect(Object.keys(lock.packages)).not.toContain("node_modules/@biomejs/biome");
    expect(Object.values(lock.packages).some((entry) => entry.dev === true)).toBe(false);
  });
});
