import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkoutCommit, describeBuild, toolInfo } from "../../cli/build-info.ts";
import { describe, expect, it } from "../support/fixtures.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HASH = "0123456789abcdef0123456789abcdef01234567";

describe("which harness runs: the version and the commit", () => {
  it("says the version first, then the commit, whether packed or a checkout, or that it does not know", () => {
    const base = { name: "event-api-harness", version: "0.1.0" };
    expect(describeBuild({ ...base, from: "packed", commit: HASH })).toBe(
      "0.1.0 (commit 0123456789ab, packed)",
    );
    expect(describeBuild({ ...base, from: "checkout", commit: HASH, modified: true })).toBe(
      "0.1.0 (commit 0123456789ab with uncommitted changes, source checkout)",
    );
    expect(describeBuild({ ...base, from: "packed" })).toBe(
      "0.1.0 (commit unknown: packed outside a git checkout)",
    );
    expect(describeBuild({ ...base, from: "checkout" })).toBe(
      "0.1.0 (commit unknown: source checkout, git not available)",
    );
    expect(toolInfo({ ...base, from: "checkout" })).toEqual({ ...base, commit: null });
  });

  it("asks git for the commit of the checkout at the package root, as git itself says it", () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    expect(checkoutCommit(ROOT)?.commit).toBe(head);
  });

  it("never takes the commit of a repository around the root, and none where there is no repository", async ({
    tmpDir,
  }) => {
    expect(checkoutCommit(path.join(ROOT, "docs"))).toBeUndefined();
    expect(checkoutCommit(tmpDir)).toBeUndefined();
  });

  it("says when tracked files differ from the commit", async ({ tmpDir }) => {
    const repo = path.join(tmpDir, "repo");
    await mkdir(repo);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
        cwd: repo,
        encoding: "utf8",
      }).trim();
    git("init", "-q");
    await writeFile(path.join(repo, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "one");
    expect(checkoutCommit(repo)).toEqual({ commit: git("rev-parse", "HEAD"), modified: false });
    await writeFile(path.join(repo, "untracked.txt"), "not counted\n");
    expect(checkoutCommit(repo)?.modified).toBe(false);
    await writeFile(path.join(repo, "a.txt"), "two\n");
    expect(checkoutCommit(repo)?.modified).toBe(true);
  });
});
