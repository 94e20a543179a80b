import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import packageJson from "../package.json" with { type: "json" };

/** What the CLI build (scripts/build/build-cli.ts) recorded of the commit it was built from; absent in the sources. */
declare const EVENT_HARNESS_BUILD: { readonly commit: string | null; readonly modified: boolean } | undefined;

/** Which harness runs: its version and the commit it was packed from, or that the checkout runs from. */
export interface HarnessBuild {
  readonly name: string;
  readonly version: string;
  /** The full commit hash; absent when it is not known (packed outside git, or no git at hand). */
  readonly commit?: string;
  /** Tracked files differed from that commit. */
  readonly modified?: boolean;
  /** "packed": the compiled CLI, commit recorded at build time; "checkout": the TypeScript sources of a checkout. */
  readonly from: "packed" | "checkout";
}

/** Git's answer in `cwd`, or undefined when git is missing, fails or takes too long: never an error of the harness. */
function git(cwd: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5_000,
    }).trim();
  } catch {
    return undefined;
  }
}

/** The commit of the git checkout at `root`, only when `root` is that checkout's top (not a repository around it). */
export function checkoutCommit(root: string): { commit: string; modified: boolean } | undefined {
  const top = git(root, ["rev-parse", "--show-toplevel"]);
  const commit = git(root, ["rev-parse", "HEAD"]);
  if (top === undefined || commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  try {
    if (realpathSync(top) !== realpathSync(root)) return undefined;
  } catch {
    return undefined;
  }
  const status = git(root, ["status", "--porcelain", "--untracked-files=no"]);
  return { commit, modified: status !== undefined && status !== "" };
}

let known: HarnessBuild | undefined;

/** This harness: the packed build's record, or the source checkout's commit asked of git once per process. */
export function harnessBuild(): HarnessBuild {
  if (known !== undefined) return known;
  const base = { name: packageJson.name, version: packageJson.version };
  if (typeof EVENT_HARNESS_BUILD === "object") {
    const { commit, modified } = EVENT_HARNESS_BUILD;
    known = {
      ...base,
      from: "packed",
      ...(commit === null ? {} : { commit, ...(modified ? { modified } : {}) }),
    };
    return known;
  }
  // Only the sources reach this line: cli/ is one level below the package root.
  const found = checkoutCommit(fileURLToPath(new URL("../", import.meta.url)));
  known = {
    ...base,
    from: "checkout",
    ...(found === undefined ? {} : { commit: found.commit, ...(found.modified ? { modified: true } : {}) }),
  };
  return known;
}

/** "0.1.0 (commit 1a2b3c4d5e6f, packed)": the version first, so a script can still cut it off. */
export function describeBuild(build: HarnessBuild): string {
  const from = build.from === "packed" ? "packed" : "source checkout";
  if (build.commit === undefined) {
    const why =
      build.from === "packed" ? "packed outside a git checkout" : "source checkout, git not available";
    return `${build.version} (commit unknown: ${why})`;
  }
  const changes = build.modified === true ? " with uncommitted changes" : "";
  return `${build.version} (commit ${build.commit.slice(0, 12)}${changes}, ${from})`;
}

/** The harness as run.json records it: `commit` null when it is not known. */
export function toolInfo(build: HarnessBuild = harnessBuild()): {
  readonly name: string;
  readonly version: string;
  readonly commit: string | null;
  readonly modified?: boolean;
} {
  return {
    name: build.name,
    version: build.version,
    commit: build.commit ?? null,
    ...(build.modified === true ? { modified: true } : {}),
  };
}
