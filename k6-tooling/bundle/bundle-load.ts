import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BuildOptions, OutputFile } from "esbuild";
import { BundleTooLargeError } from "../../core/index.ts";
import type { ScenarioName } from "../../load/index.ts";
import { SCENARIO_NAMES } from "../../load/index.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where the TypeScript scenarios live, one entry point per scenario. */
export const LOAD_SCENARIO_DIR = path.join(ROOT, "load", "scenarios");
/** Where the bundles go (git-ignored): `dist/load/<scenario>.js` plus its source map. */
export const LOAD_BUNDLE_DIR = path.join(ROOT, "dist", "load");
/** The goal per scenario: a bundle is read by every VU, so it stays small; the build fails above it. */
export const MAX_BUNDLE_BYTES = 100 * 1024;

/** The esbuild configuration for k6 scripts, every setting explained (after grafana/k6-jslib-testing's). */
export function loadBuildOptions(scenarios: readonly ScenarioName[], outdir: string): BuildOptions {
  return {
    // One bundle per scenario: `load/scenarios/<name>.ts` → `<outdir>/<name>.js`.
    entryPoints: scenarios.map((name) => ({ in: path.join(LOAD_SCENARIO_DIR, `${name}.ts`), out: name })),
    outdir,
    // Inline our own modules (load/lib/…) so k6 loads a single file per scenario.
    bundle: true,
    // k6 runs ES modules natively; keeping ESM avoids a CommonJS wrapper and starts VUs faster.
    format: "esm",
    // k6's runtime (Sobek) is neither Node nor a browser: no Node built-ins, no browser globals assumed.
    platform: "neutral",
    // Sobek runs modern syntax (k6 itself strips TypeScript with target ESNext); ES2022 keeps class fields native.
    target: "es2022",
    // k6's built-in modules and remote jslib imports are resolved by k6 at run time, never bundled.
    external: ["k6", "k6/*", "https://*"],
    // A linked source map: k6 loads it, so stack traces point at the TypeScript lines, and the bundle stays small.
    sourcemap: "linked",
    // Readable output: k6 parses it once per test, and minifying would hide nothing worth the harder debugging.
    minify: false,
    // Scenarios share no runtime state across bundles, so no code splitting into chunks k6 would load separately.
    splitting: false,
    // Legal comments are not needed in a test script.
    legalComments: "none",
    // Bundles are written by the caller (atomically), so concurrent runs never read a half-written file.
    write: false,
    // The build's own diagnostics go to the caller, not straight to stderr.
    logLevel: "silent",
    // load/ has its own tsconfig (k6 types, no Node); esbuild only strips types, `tsc -p load` checks them.
    tsconfig: path.join(ROOT, "load", "tsconfig.json"),
  };
}

export interface BundleResult {
  readonly scenario: ScenarioName;
  readonly file: string;
  readonly bytes: number;
}

async function writeAtomically(file: OutputFile): Promise<void> {
  const temporary = `${file.path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, file.contents);
  try {
    await rename(temporary, file.path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Bundles the given scenarios (default: all) into `outDir`, and fails when one is larger than MAX_BUNDLE_BYTES.
 * Fast enough (tens of milliseconds) to run before every load test.
 */
export async function bundleLoadScenarios(
  scenarios: readonly ScenarioName[] = SCENARIO_NAMES,
  outDir: string = LOAD_BUNDLE_DIR,
): Promise<BundleResult[]> {
  await mkdir(outDir, { recursive: true });
  // esbuild loads only when a run bundles, so importing k6-tooling stays light.
  const { build } = await import("esbuild");
  const result = await build(loadBuildOptions(scenarios, outDir));
  const outputs = result.outputFiles ?? [];
  await Promise.all(outputs.map(writeAtomically));
  const bundles = scenarios.map((scenario) => {
    const file = path.join(outDir, `${scenario}.js`);
    const output = outputs.find((candidate) => candidate.path === file);
    if (output === undefined) throw new Error(`esbuild produced no ${file}`);
    return { scenario, file, bytes: output.contents.byteLength };
  });
  checkBundleSizes(bundles);
  return bundles;
}

/** Throws BundleTooLargeError naming every bundle above the limit. */
export function checkBundleSizes(bundles: readonly BundleResult[], limit = MAX_BUNDLE_BYTES): void {
  const tooLarge = bundles.filter((bundle) => bundle.bytes > limit);
  if (tooLarge.length > 0) {
    throw new BundleTooLargeError(
      `bundle(s) over ${formatKb(limit)}: ${tooLarge.map((b) => `${b.scenario} ${formatKb(b.bytes)}`).join(", ")}`,
    );
  }
}

export function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

// `npm run build:load`: bundle every scenario and report each bundle's size.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const bundles = await bundleLoadScenarios();
    for (const bundle of bundles) {
      console.log(`${path.relative(ROOT, bundle.file).padEnd(28)} ${formatKb(bundle.bytes).padStart(9)}`);
    }
    console.log(`${bundles.length} bundles, limit ${formatKb(MAX_BUNDLE_BYTES)} each`);
  } catch (error) {
    console.error(`build:load failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
