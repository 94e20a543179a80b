import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  compareInstall,
  compareTrees,
  installedPackages,
  lockedPackages,
} from "../../../scripts/ci/check-pinned-install.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const LOCK = {
  name: "tool",
  version: "1.0.0",
  lockfileVersion: 3,
  packages: {
    "": { name: "tool", version: "1.0.0", dependencies: { a: "1.0.0" } },
    "node_modules/a": { version: "1.0.0", dependencies: { "@s/b": "^2.0.0" } },
    "node_modules/@s/b": { version: "2.1.0" },
    "node_modules/a/node_modules/@s/b": { version: "2.0.5" },
    "node_modules/@esbuild/darwin-arm64": { version: "0.1.0", optional: true },
    "node_modules/lint": { version: "3.0.0", dev: true },
  },
};

/** Lays out packages as npm would: a directory with a package.json per package. */
async function install(dir: string, packages: Record<string, { name: string; version: string }>) {
  for (const [where, manifest] of Object.entries(packages)) {
    await mkdir(path.join(dir, where), { recursive: true });
    await writeFile(path.join(dir, where, "package.json"), JSON.stringify(manifest));
  }
}

const EXACT = {
  "node_modules/tool": { name: "tool", version: "1.0.0" },
  "node_modules/a": { name: "a", version: "1.0.0" },
  "node_modules/@s/b": { name: "@s/b", version: "2.1.0" },
  "node_modules/a/node_modules/@s/b": { name: "@s/b", version: "2.0.5" },
};

describe("an install compared with the lock's production tree", () => {
  it("finds every package, scoped and nested, and no difference in an exact install", async ({ tmpDir }) => {
    await install(tmpDir, EXACT);
    const installed = await installedPackages(tmpDir);
    expect(installed.map((item) => item.where).sort()).toEqual(Object.keys(EXACT).sort());
    expect(compareInstall(lockedPackages(LOCK), installed)).toEqual([]);
  });

  it("names a version resolved afresh, a package missing, one the lock lacks and the harness at another version", async ({
    tmpDir,
  }) => {
    await install(tmpDir, {
      ...EXACT,
      "node_modules/tool": { name: "tool", version: "1.0.1" },
      "node_modules/a/node_modules/@s/b": { name: "@s/b", version: "2.0.6" },
      "node_modules/extra": { name: "extra", version: "0.0.1" },
    });
    expect(compareInstall(lockedPackages(LOCK), await installedPackages(tmpDir))).toEqual([
      "node_modules/tool: 1.0.1, where the lock is of 1.0.0",
      "node_modules/a/node_modules/@s/b: @s/b@2.0.6 resolved afresh (the lock has 2.1.0, 2.0.5)",
      "node_modules/extra: extra@0.0.1 is not in the lock",
      "@s/b@2.0.5 is in the lock but was not installed",
    ]);
  });

  it("compares two records of a tree: the tarball's shrinkwrap must hold the lock's", () => {
    const shrinkwrap = { ...LOCK, packages: { ...LOCK.packages, "node_modules/@s/b": { version: "2.2.0" } } };
    expect(compareTrees(lockedPackages(LOCK), lockedPackages(shrinkwrap), "npm-shrinkwrap.json")).toEqual([
      "npm-shrinkwrap.json lacks @s/b@2.1.0",
      "npm-shrinkwrap.json has @s/b@2.2.0, which the lock has not",
    ]);
  });
});
