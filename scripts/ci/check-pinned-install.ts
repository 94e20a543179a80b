// Compares what an install of the packed tarball laid out with the lock file the harness's tests ran with: a
// consumer's `npm install` must resolve nothing afresh. .ci/run runs it; any difference is exit 1, each one named.
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { nameFromPath, parseLock, productionEntries } from "../build/pinned-tree.ts";

/** One package of the lock's production tree: what a consumer's install must lay out, exactly. */
export interface LockedPackage {
  readonly name: string;
  readonly version: string;
  /** Only on some platforms (esbuild's binaries) or an optional peer: may be absent from an install. */
  readonly optional: boolean;
}

export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  /** Relative to the install's directory: node_modules/vite, node_modules/event-api-harness/node_modules/vite. */
  readonly where: string;
}

/** The lock's own package and its production tree (productionEntries: what a consumer's install lays out). */
export function lockedPackages(lock: unknown): {
  readonly root: { readonly name: string; readonly version: string };
  readonly packages: LockedPackage[];
} {
  const parsed = parseLock(lock);
  const packages: LockedPackage[] = [];
  for (const [where, entry] of Object.entries(productionEntries(parsed))) {
    if (entry.link === true) continue;
    if (entry.version === undefined) throw new Error(`the lock's ${where} has no version`);
    packages.push({
      name: entry.name ?? nameFromPath(where),
      version: entry.version,
      optional: entry.optional === true,
    });
  }
  return { root: { name: parsed.name, version: parsed.version }, packages };
}

const PackageJson = z.object({ name: z.string(), version: z.string() });

/** Every package under `dir`'s node_modules, nested ones included, as its own package.json names it. */
export async function installedPackages(dir: string, under = ""): Promise<InstalledPackage[]> {
  const modules = path.join(dir, under, "node_modules");
  const found: InstalledPackage[] = [];
  const entries = await readdir(modules).catch(() => [] as string[]);
  for (const entry of entries.sort()) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@")
      ? (await readdir(path.join(modules, entry))).sort().map((name) => `${entry}/${name}`)
      : [entry];
    for (const name of names) {
      const where = path.posix.join(under, "node_modules", name);
      // A link is the consumer's own doing, not something the install resolved.
      if ((await lstat(path.join(dir, where))).isSymbolicLink()) continue;
      const manifest = PackageJson.parse(
        JSON.parse(await readFile(path.join(dir, where, "package.json"), "utf8")),
      );
      found.push({ name: manifest.name, version: manifest.version, where });
      found.push(...(await installedPackages(dir, where)));
    }
  }
  return found;
}

/**
 * The differences between an install of `harness` and the lock's production tree, one line each: a package at a
 * version the lock does not hold (resolved afresh), a required one missing, the harness at another version.
 */
export function compareInstall(
  locked: ReturnType<typeof lockedPackages>,
  installed: readonly InstalledPackage[],
): string[] {
  const differences: string[] = [];
  const lockedVersions = new Map<string, Set<string>>();
  for (const { name, version } of locked.packages) {
    lockedVersions.set(name, (lockedVersions.get(name) ?? new Set()).add(version));
  }
  const harness = installed.filter((item) => item.name === locked.root.name);
  if (harness.length !== 1) {
    differences.push(`${locked.root.name} is installed ${harness.length} times, not once`);
  }
  for (const item of harness) {
    if (item.version !== locked.root.version)
      differences.push(`${item.where}: ${item.version}, where the lock is of ${locked.root.version}`);
  }
  const seen = new Set<string>();
  for (const item of installed) {
    if (item.name === locked.root.name) continue;
    seen.add(`${item.name}@${item.version}`);
    const versions = lockedVersions.get(item.name);
    if (versions?.has(item.version)) continue;
    differences.push(
      versions === undefined
        ? `${item.where}: ${item.name}@${item.version} is not in the lock`
        : `${item.where}: ${item.name}@${item.version} resolved afresh (the lock has ${[...versions].join(", ")})`,
    );
  }
  for (const item of locked.packages) {
    if (!item.optional && !seen.has(`${item.name}@${item.version}`))
      differences.push(`${item.name}@${item.version} is in the lock but was not installed`);
  }
  return differences;
}

/** Packages one production tree has and the other lacks, by name and version. */
export function compareTrees(
  expected: ReturnType<typeof lockedPackages>,
  actual: ReturnType<typeof lockedPackages>,
  what: string,
): string[] {
  const key = (item: LockedPackage) => `${item.name}@${item.version}${item.optional ? " (optional)" : ""}`;
  const have = new Set(actual.packages.map(key));
  const want = new Set(expected.packages.map(key));
  return [
    ...[...want].filter((item) => !have.has(item)).map((item) => `${what} lacks ${item}`),
    ...[...have]
      .filter((item) => !want.has(item))
      .map((item) => `${what} has ${item}, which the lock has not`),
  ];
}

// `tsx scripts/ci/check-pinned-install.ts <package-lock.json> <install dir>`
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [lockFile, installDir] = process.argv.slice(2);
  if (lockFile === undefined || installDir === undefined) {
    console.error("usage: check-pinned-install.ts <package-lock.json> <install dir>");
    process.exit(2);
  }
  const locked = lockedPackages(JSON.parse(await readFile(lockFile, "utf8")));
  const installed = await installedPackages(installDir);
  const differences = compareInstall(locked, installed);
  // The tarball's own record of its tree must be the same production tree.
  const shrinkwrapFile = path.join(installDir, "node_modules", locked.root.name, "npm-shrinkwrap.json");
  const shrinkwrap = await readFile(shrinkwrapFile, "utf8").catch(() => undefined);
  if (shrinkwrap === undefined)
    differences.push(`${shrinkwrapFile} is missing: the tarball carries no shrinkwrap`);
  else
    differences.push(...compareTrees(locked, lockedPackages(JSON.parse(shrinkwrap)), "npm-shrinkwrap.json"));
  if (differences.length > 0) {
    console.error(
      `pinned install: ${differences.length} difference(s) between ${installDir} and ${lockFile}:\n  ${differences.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log(
    `pinned install: all ${installed.length} installed packages are the lock's versions (${locked.packages.length} in its production tree)`,
  );
}
