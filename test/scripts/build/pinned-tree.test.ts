import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import packageLock from "../../../package-lock.json" with { type: "json" };
import {
  consumerLockOf,
  parseLock,
  productionEntries,
  shrinkwrapOf,
} from "../../../scripts/build/pinned-tree.ts";
import { CONSUMER_DIR, expectedConsumerLock } from "../../../scripts/build/write-consumer-lock.ts";

/** A lock with one of each kind of entry npm writes. */
const LOCK = parseLock({
  name: "tool",
  version: "1.0.0",
  lockfileVersion: 3,
  packages: {
    "": { name: "tool", version: "1.0.0", dependencies: { a: "1.0.0" }, devDependencies: { lint: "2.0.0" } },
    "node_modules/a": {
      version: "1.0.0",
      dependencies: { b: "^2.0.0", fsevents: "^2.0.0" },
      peerDependencies: { peer: "*" },
    },
    "node_modules/b": { version: "2.1.0" },
    "node_modules/a/node_modules/b": { version: "2.0.5" },
    "node_modules/lint": { version: "2.0.0", dev: true, dependencies: { peer: "1.0.0" } },
    "node_modules/peer": { version: "1.0.0", devOptional: true },
    "node_modules/fsevents": { version: "2.3.3", devOptional: true, os: ["darwin"] },
    "node_modules/@esbuild/linux-x64": { version: "0.1.0", optional: true, cpu: ["x64"] },
  },
});

describe("the production tree of the lock", () => {
  it("drops dev entries and optional peers only the dev tree supplies, keeps the rest where the lock put them", () => {
    expect(productionEntries(LOCK)).toEqual({
      "node_modules/a": LOCK.packages["node_modules/a"],
      "node_modules/b": { version: "2.1.0" },
      "node_modules/a/node_modules/b": { version: "2.0.5" },
      "node_modules/fsevents": { version: "2.3.3", optional: true, os: ["darwin"] },
      "node_modules/@esbuild/linux-x64": { version: "0.1.0", optional: true, cpu: ["x64"] },
    });
  });

  it("the shrinkwrap names the harness without its devDependencies", () => {
    const shrinkwrap = shrinkwrapOf(LOCK) as { packages: Record<string, unknown> };
    expect(shrinkwrap.packages[""]).toEqual({ name: "tool", version: "1.0.0", dependencies: { a: "1.0.0" } });
    expect(Object.keys(shrinkwrap.packages)).not.toContain("node_modules/lint");
  });

  it("the consumer's lock takes the harness from the tarball its package.json names", () => {
    const consumer = consumerLockOf(LOCK, { dependencies: { tool: "file:tool-1.0.0.tgz" } }, "ci") as {
      name: string;
      packages: Record<string, unknown>;
    };
    expect(consumer.name).toBe("ci");
    expect(consumer.packages[""]).toEqual({ dependencies: { tool: "file:tool-1.0.0.tgz" } });
    expect(consumer.packages["node_modules/tool"]).toEqual({
      version: "1.0.0",
      resolved: "file:tool-1.0.0.tgz",
      dependencies: { a: "1.0.0" },
    });
    expect(() => consumerLockOf(LOCK, { dependencies: { tool: "^1.0.0" } }, "ci")).toThrow(/file:<tarball>/);
  });

  it("the harness's own production tree has no dev entry and every version of the lock", () => {
    const lock = parseLock(packageLock);
    const entries = productionEntries(lock);
    for (const [where, entry] of Object.entries(entries)) {
      expect(entry.dev, where).toBeUndefined();
      expect(entry.version).toBe(lock.packages[where]?.version);
    }
    expect(Object.keys(entries).length).toBeGreaterThan(50);
  });

  it(`${CONSUMER_DIR}/package-lock.json is the one npm run build:consumer-lock writes`, async () => {
    const committed = await readFile(
      new URL(`../../../${CONSUMER_DIR}/package-lock.json`, import.meta.url),
      "utf8",
    );
    expect(committed, "run npm run build:consumer-lock").toBe(await expectedConsumerLock());
  });
});
