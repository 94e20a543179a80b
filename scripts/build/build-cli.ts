import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BuildOptions } from "esbuild";
import { build } from "esbuild";
import { checkoutCommit } from "../../cli/build-info.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where the compiled CLI goes (git-ignored); an installed package runs it, so no TypeScript is compiled at start. */
export const CLI_BUILD_DIR = path.join(ROOT, "dist", "cli");
/** The contract suite's file in the build, relative to the package root (vitest's root). */
export const BUILT_CONTRACT_SUITE = "dist/cli/contract-suite.js";

/**
 * The commit the build is made from, for `--version` and the reports: git's, or EVENT_HARNESS_COMMIT where the
 * sources come without .git (a Docker build context); null when neither says.
 */
export function buildCommit(
  env: NodeJS.ProcessEnv = process.env,
  root: string = ROOT,
): {
  readonly commit: string | null;
  readonly modified: boolean;
} {
  const found = checkoutCommit(root);
  if (found !== undefined) return found;
  const given = env.EVENT_HARNESS_COMMIT?.trim().toLowerCase();
  return { commit: given !== undefined && /^[0-9a-f]{40,64}$/.test(given) ? given : null, modified: false };
}

/** The esbuild configuration for the Node side, every setting explained. */
export function cliBuildOptions(
  outdir: string = CLI_BUILD_DIR,
  commit: ReturnType<typeof buildCommit> = buildCommit(),
): BuildOptions {
  return {
    // The CLI, and the contract suite vitest runs in its worker.
    entryPoints: [
      { in: path.join(ROOT, "cli", "entry.ts"), out: "event-harness" },
      { in: path.join(ROOT, "cli", "contract", "contract-suite.ts"), out: "contract-suite" },
    ],
    outdir,
    // Our own modules are inlined; every package stays an import, resolved from node_modules as installed.
    bundle: true,
    packages: "external",
    // Node resolves ES modules natively, and `import()` of a command stays lazy only in ESM.
    format: "esm",
    platform: "node",
    // package.json's engines: Node 20 or newer.
    target: "node20",
    // Each command's `import()` becomes its own chunk; every chunk sits in dist/cli/, so `new URL("../../",
    // import.meta.url)` is the package root in the build as it is in the sources.
    splitting: true,
    chunkNames: "chunk-[hash]",
    // The contract runner finds the built suite here instead of the TypeScript one.
    // ...and --version and the reports name the commit built from, recorded now (cli/build-info.ts).
    define: {
      EVENT_HARNESS_CONTRACT_SUITE: JSON.stringify(BUILT_CONTRACT_SUITE),
      EVENT_HARNESS_BUILD: JSON.stringify(commit),
    },
    // Stack traces of an installed harness point at the TypeScript lines (with `node --enable-source-maps`).
    sourcemap: "linked",
    // Readable output: start-up is dominated by what is loaded, not by its size.
    minify: false,
    legalComments: "none",
    logLevel: "warning",
    tsconfig: path.join(ROOT, "tsconfig.json"),
  };
}

/** Compiles the CLI into `outdir`, replacing what was there. */
export async function buildCli(outdir: string = CLI_BUILD_DIR): Promise<void> {
  await rm(outdir, { recursive: true, force: true });
  await build(cliBuildOptions(outdir));
}

// `npm run build` (and `prepack`): compile the CLI.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildCli();
  console.log(`compiled the CLI into ${path.relative(ROOT, CLI_BUILD_DIR)}/`);
}
