// The production tree of package-lock.json, the one the harness's tests ran with, as the two files that pin it
// elsewhere: the npm-shrinkwrap.json the tarball carries and the package-lock.json a consumer directory commits.
import { z } from "zod";

const LockEntry = z
  .object({
    name: z.string().optional(),
    version: z.string().optional(),
    dev: z.boolean().optional(),
    optional: z.boolean().optional(),
    devOptional: z.boolean().optional(),
    link: z.boolean().optional(),
    dependencies: z.record(z.string(), z.string()).optional(),
    optionalDependencies: z.record(z.string(), z.string()).optional(),
  })
  .loose();
export type LockEntry = z.infer<typeof LockEntry>;

const LockFile = z
  .object({
    name: z.string(),
    version: z.string(),
    lockfileVersion: z.literal(3),
    packages: z.record(z.string(), LockEntry),
  })
  .loose();
export type LockFile = z.infer<typeof LockFile>;

export function parseLock(json: unknown): LockFile {
  return LockFile.parse(json);
}

/** node_modules/@scope/name, or a nested …/node_modules/name: the package's name is what follows the last one. */
export function nameFromPath(where: string): string {
  const marker = "node_modules/";
  return where.slice(where.lastIndexOf(marker) + marker.length);
}

/**
 * The entries a production install lays out: none marked dev, and a devOptional one (needed by the dev tree,
 * optional for production) only when a production package lists it as a dependency; otherwise it is an optional
 * peer that only the dev tree supplies, which npm does not install for a consumer. Kept ones lose their dev flags.
 */
export function productionEntries(lock: LockFile): Record<string, LockEntry> {
  const root = lock.packages[""];
  const production = Object.entries(lock.packages).filter(
    ([where, entry]) => where !== "" && entry.dev !== true && entry.devOptional !== true,
  );
  const wanted = new Set<string>();
  for (const entry of [root, ...production.map(([, entry]) => entry)]) {
    for (const name of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies }))
      wanted.add(name);
  }
  const kept: Record<string, LockEntry> = {};
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === "" || entry.dev === true) continue;
    const { devOptional, ...rest } = entry;
    if (devOptional === true) {
      if (wanted.has(entry.name ?? nameFromPath(where))) kept[where] = { ...rest, optional: true };
      continue;
    }
    kept[where] = rest;
  }
  return kept;
}

/** The harness's own entry without what only its development needs. */
function productionRoot(lock: LockFile): LockEntry {
  const { devDependencies: _devDependencies, ...root } = lock.packages[""] ?? {};
  return root;
}

/** npm-shrinkwrap.json for the packed tarball: the harness and its production tree, at the lock's versions. */
export function shrinkwrapOf(lock: LockFile): unknown {
  return {
    name: lock.name,
    version: lock.version,
    lockfileVersion: 3,
    requires: true,
    packages: { "": productionRoot(lock), ...productionEntries(lock) },
  };
}

const ConsumerPackage = z.object({ dependencies: z.record(z.string(), z.string()) }).loose();

/**
 * The package-lock.json of a consumer directory whose package.json depends on the tarball (`file:…tgz`): the
 * harness from that file, and every package of its production tree where the harness's own lock put it. npm ci
 * there installs exactly what the harness's tests ran with; the tarball's integrity is added by the first npm install.
 */
export function consumerLockOf(lock: LockFile, consumerPackageJson: unknown, directoryName: string): unknown {
  const consumer = ConsumerPackage.parse(consumerPackageJson);
  const spec = consumer.dependencies[lock.name];
  if (spec === undefined || !spec.startsWith("file:")) {
    throw new Error(`the consumer's package.json must depend on ${lock.name} as file:<tarball>`);
  }
  const { name: _name, ...harness } = productionRoot(lock);
  return {
    name: directoryName,
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { dependencies: consumer.dependencies },
      [`node_modules/${lock.name}`]: { version: lock.version, resolved: spec, ...harness },
      ...productionEntries(lock),
    },
  };
}
