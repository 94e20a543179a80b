import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { UsageError } from "../../core/index.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The Go module that pins k6 (go.mod + go.sum), and where the harness builds it. */
export const K6_TOOL_DIR = path.join(ROOT, "tools", "k6");
export const K6_LOCAL_BIN = path.join(ROOT, ".tools", "bin", process.platform === "win32" ? "k6.exe" : "k6");
export const K6_MODULE = "go.k6.io/k6/v2";
/** The harness's own k6 extension (tools/k6/harness): `k6 version` lists it in the harness's build only. */
export const K6_HARNESS_EXTENSION = "k6/x/harness";
/** The harness's own k6 output (tools/k6/samples): the baseline record's samples, written compactly. */
export const K6_SAMPLES_OUTPUT = "harness-samples";
/** The major version the scripts are written for (module path, executors, summary format). */
export const K6_MAJOR = 2;

const VERSION_TIMEOUT_MS = 15_000;
/** A cold build takes about 1.5 min on 2 cores; this only stops a hung toolchain. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

export type K6Source = "K6_BIN" | "PATH" | "project";

export interface K6Binary {
  readonly path: string;
  /** As `k6 version` reports it, e.g. `v2.2.0`. */
  readonly version: string;
  readonly source: K6Source;
  /** True when it has k6/x/harness (the harness's own build): only then do VUs cap response bodies. */
  readonly harnessExtension: boolean;
  /** True when it has the output harness-samples (the harness's own build); otherwise runs pay for k6's CSV output. */
  readonly samplesOutput: boolean;
}

export interface K6Lookup {
  readonly binary: K6Binary | undefined;
  /** Candidates passed over, with why (wrong major version, not runnable). */
  readonly skipped: readonly string[];
}

/** The version go.mod pins, e.g. `v2.2.0`. */
export async function pinnedK6Version(): Promise<string> {
  const goMod = await readFile(path.join(K6_TOOL_DIR, "go.mod"), "utf8");
  const match = /^\s*(?:require\s+)?go\.k6\.io\/k6\/v2\s+(v\d+\.\d+\.\d+\S*)/m.exec(goMod);
  if (match?.[1] === undefined) throw new Error(`tools/k6/go.mod does not require ${K6_MODULE}`);
  return match[1];
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds an executable on PATH the way a shell would, without running a shell. */
export async function whichOnPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** What `k6 version` says of a binary. */
export interface K6Identity {
  readonly version: string;
  readonly harnessExtension: boolean;
  readonly samplesOutput: boolean;
}

/** Runs `k6 version`; the version and whether k6/x/harness is built in, or an Error saying why it is unusable. */
export async function k6Identity(binary: string): Promise<K6Identity> {
  const { stdout } = await promisify(execFile)(binary, ["version"], {
    timeout: VERSION_TIMEOUT_MS,
    env: { PATH: process.env.PATH ?? "", K6_NO_USAGE_REPORT: "true" },
  });
  const match = /\bk6\s+(v\d+\.\d+\.\d+\S*)/.exec(stdout);
  if (match?.[1] === undefined) throw new Error(`'${binary} version' printed no k6 version`);
  // An extension line reads `  <go package> , k6/x/harness [js]` or `  <go package> , harness-samples [output]`.
  const lines = stdout.split("\n");
  const harnessExtension = lines.some((line) => line.includes(` ${K6_HARNESS_EXTENSION} [js]`));
  const samplesOutput = lines.some((line) => line.includes(` ${K6_SAMPLES_OUTPUT} [output]`));
  return { version: match[1], harnessExtension, samplesOutput };
}

/** Runs `k6 version`; the version string, or an Error saying why the binary is unusable. */
export async function k6Version(binary: string): Promise<string> {
  return (await k6Identity(binary)).version;
}

function majorOf(version: string): number {
  return Number(/^v(\d+)/.exec(version)?.[1] ?? Number.NaN);
}

/** Where the project-local k6 lives; tests point it elsewhere. */
export interface K6Location {
  readonly localBin?: string;
}

/** Resolves k6 as K6_BIN → `k6` on PATH → the project-local build; K6_BIN, when set, must be a usable k6 v2. */
export async function findK6(
  env: NodeJS.ProcessEnv,
  { localBin = K6_LOCAL_BIN }: K6Location = {},
): Promise<K6Lookup> {
  const skipped: string[] = [];
  const explicit = env.K6_BIN?.trim();
  if (explicit) {
    let identity: K6Identity;
    try {
      identity = await k6Identity(explicit);
    } catch (error) {
      throw new UsageError(
        "missing-tool",
        `K6_BIN=${explicit} is not a runnable k6 (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    if (majorOf(identity.version) !== K6_MAJOR) {
      throw new UsageError(
        "missing-tool",
        `K6_BIN=${explicit} is k6 ${identity.version}; the harness needs k6 v${K6_MAJOR}.x`,
      );
    }
    return { binary: { path: explicit, ...identity, source: "K6_BIN" }, skipped };
  }
  const candidates: Array<[K6Source, string | undefined]> = [
    ["PATH", await whichOnPath(process.platform === "win32" ? "k6.exe" : "k6", env)],
    ["project", (await isExecutable(localBin)) ? localBin : undefined],
  ];
  if (candidates[1]?.[1] !== undefined && !(await builtFromCurrentSource(localBin))) {
    candidates.pop();
    skipped.push(`${localBin}, built from an older tools/k6 (rebuilding)`);
  }
  for (const [source, candidate] of candidates) {
    if (candidate === undefined) continue;
    try {
      const identity = await k6Identity(candidate);
      if (majorOf(identity.version) === K6_MAJOR) {
        return { binary: { path: candidate, ...identity, source }, skipped };
      }
      skipped.push(`${candidate} is k6 ${identity.version}, not v${K6_MAJOR}.x`);
    } catch (error) {
      skipped.push(`${candidate} did not run (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { binary: undefined, skipped };
}

export interface EnsureK6Options extends K6Location {
  readonly env: NodeJS.ProcessEnv;
  /** Where "building k6…" and the skipped candidates are reported. */
  readonly stderr: NodeJS.WritableStream;
  readonly signal?: AbortSignal;
}

/** Returns a usable k6 v2, building the pinned version into .tools/bin (once) when none is found. */
export async function ensureK6({
  env,
  stderr,
  signal,
  localBin = K6_LOCAL_BIN,
}: EnsureK6Options): Promise<K6Binary> {
  const lookup = await findK6(env, { localBin });
  if (lookup.binary) return lookup.binary;
  for (const reason of lookup.skipped) stderr.write(`event-harness: skipping ${reason}\n`);
  const go = await whichOnPath(process.platform === "win32" ? "go.exe" : "go", env);
  const version = await pinnedK6Version();
  if (go === undefined) {
    throw new UsageError(
      "missing-tool",
      `k6 ${version} was not found (K6_BIN, PATH, .tools/bin/k6) and Go (≥ 1.25) is not installed to build it. ` +
        "Install k6 v2 and put it on PATH or set K6_BIN, or install Go and run `event-harness k6 --install`.",
    );
  }
  const where = localBin === K6_LOCAL_BIN ? ".tools/bin" : path.dirname(localBin);
  stderr.write(`event-harness: building k6 ${version} into ${where} (once, about a minute or two)…\n`);
  await buildK6(go, localBin, env, signal);
  const built = await k6Identity(localBin);
  if (majorOf(built.version) !== K6_MAJOR) {
    throw new UsageError("missing-tool", `the build produced k6 ${built.version}, not v${K6_MAJOR}.x`);
  }
  if (!built.harnessExtension || !built.samplesOutput) {
    throw new UsageError(
      "missing-tool",
      `the build produced a k6 without ${built.harnessExtension ? K6_SAMPLES_OUTPUT : K6_HARNESS_EXTENSION}`,
    );
  }
  stderr.write(`event-harness: built k6 ${built.version} at ${localBin}\n`);
  return { path: localBin, ...built, source: "project" };
}

/** The Go files built into tools/k6 (main.go, the extension; not tests), as paths relative to it. */
async function goSources(): Promise<string[]> {
  const entries = await readdir(K6_TOOL_DIR, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".go") && !entry.name.endsWith("_test.go"))
    .map((entry) => path.relative(K6_TOOL_DIR, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A hash of what the project-local k6 is built from (go.mod, go.sum, the Go files): another build is rebuilt. */
async function buildSource(): Promise<string> {
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum", ...(await goSources())]) {
    hash.update(`${file}\0`).update(await readFile(path.join(K6_TOOL_DIR, file)));
  }
  return hash.digest("hex");
}

/** The file beside the project-local k6 that records buildSource() of its build. */
const sourceStamp = (localBin: string): string => `${localBin}.source`;

/** Records that the k6 at `localBin` was built from the current tools/k6. */
export async function recordBuildSource(localBin: string): Promise<void> {
  await writeFile(sourceStamp(localBin), `${await buildSource()}\n`);
}

/** True when the project-local k6 was built from the current tools/k6 (an older one may lack the body cap). */
async function builtFromCurrentSource(localBin: string): Promise<boolean> {
  const stamp = await readFile(sourceStamp(localBin), "utf8").catch(() => "");
  return stamp.trim() === (await buildSource());
}

/**
 * `go build` of tools/k6's main package (k6 with k6/x/harness), whose go.mod/go.sum pin every module: no version list
 * is needed from the module proxy (`go install …@v2.2.0` would need one). Builds to a temporary name and renames, so a
 * concurrent run never sees a half-written binary.
 */
async function buildK6(
  go: string,
  localBin: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
): Promise<void> {
  await mkdir(path.dirname(localBin), { recursive: true });
  const temporary = `${localBin}.${process.pid}.tmp`;
  const output: string[] = [];
  const code = await new Promise<number | string>((resolve, reject) => {
    const child = spawn(go, ["build", "-trimpath", "-o", temporary, "."], {
      cwd: K6_TOOL_DIR,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: BUILD_TIMEOUT_MS,
      ...(signal === undefined ? {} : { signal }),
    });
    const keep = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 200) output.shift();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", (status, killedBy) => resolve(status ?? killedBy ?? "unknown"));
  }).catch(async (error: unknown) => {
    await rm(temporary, { force: true });
    throw error;
  });
  if (code !== 0) {
    await rm(temporary, { force: true });
    const tail = output.join("").trim().split("\n").slice(-15).join("\n");
    throw new UsageError(
      "missing-tool",
      `building k6 failed (go build exited ${code}); see tools/k6/README.md.${tail ? `\n${tail}` : ""}`,
    );
  }
  await rename(temporary, localBin);
  await recordBuildSource(localBin);
}
