import { execFileSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import packageJson from "../../../package.json" with { type: "json" };
import { buildCli } from "../../../scripts/build/build-cli.ts";
import { runCli } from "../../support/run-cli.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

// A package root as `npm pack` ships it: the launcher and the compiled CLI, no TypeScript sources.
let packageRoot: string;
let launcher: string;

beforeAll(async () => {
  packageRoot = await mkdtemp(path.join(tmpdir(), "built-cli-"));
  await buildCli(path.join(packageRoot, "dist", "cli"));
  await mkdir(path.join(packageRoot, "bin"));
  launcher = path.join(packageRoot, "bin", "event-harness.js");
  await copyFile(path.join(ROOT, "bin", "event-harness.js"), launcher);
  await copyFile(path.join(ROOT, "bin", "node-support.js"), path.join(packageRoot, "bin", "node-support.js"));
  await copyFile(path.join(ROOT, "package.json"), path.join(packageRoot, "package.json"));
  await symlink(path.join(ROOT, "node_modules"), path.join(packageRoot, "node_modules"), "dir");
}, 60_000);

afterAll(async () => {
  await rm(packageRoot, { recursive: true, force: true });
});

describe("the compiled CLI", () => {
  it("holds no TypeScript, and one chunk per lazily loaded module", async () => {
    const files = await readdir(path.join(packageRoot, "dist", "cli"));
    expect(files).toContain("event-harness.js");
    expect(files).toContain("contract-suite.js");
    expect(files.filter((file) => file.endsWith(".ts"))).toEqual([]);
    expect(files.filter((file) => /^chunk-.*\.js$/.test(file)).length).toBeGreaterThan(5);
  });

  it("the launcher of a package without sources runs the build: --help lists every command", async () => {
    const result = await runCli(["--help"], {}, 30_000, launcher);
    expect(result.code).toBe(0);
    for (const name of ["run", "contract", "load", "openapi", "k6"])
      expect(result.stdout).toContain(`  ${name} `);
  });

  it("the launcher of a package without sources prints the version and the commit built from for --version", async () => {
    // Recorded at build time: the compiled CLI asks no git (the package root here is no checkout).
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" })
      .trim()
      .slice(0, 12);
    const result = await runCli(["--version"], {}, 30_000, launcher);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(
      new RegExp(
        `^${packageJson.version.replaceAll(".", "\\.")} \\(commit ${commit}( with uncommitted changes)?, packed\\)\n$`,
      ),
    );
  });

  it("runs the compiled contract suite against the embedded sandbox", async () => {
    const reports = await mkdtemp(path.join(tmpdir(), "built-cli-reports-"));
    try {
      const result = await runCli(
        ["contract", "--only", "token.issued,bearer.missing", "--report-dir", reports],
        {},
        60_000,
        launcher,
      );
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.stdout).toContain("Verdict: PASSED — 2 PASS");
      expect(result.code).toBe(0);
    } finally {
      await rm(reports, { recursive: true, force: true });
    }
  }, 90_000);

  it("the compiled contract suite still fails a faulty target (exit 1)", async () => {
    const reports = await mkdtemp(path.join(tmpdir(), "built-cli-reports-"));
    try {
      const result = await runCli(
        [
          "contract",
          "--only",
          "bearer.missing",
          "--sandbox-fault",
          "bearer-not-required",
          "--report-dir",
          reports,
        ],
        {},
        60_000,
        launcher,
      );
      expect(result.stdout).toMatch(/^ {2}FAIL +bearer\.missing /m);
      expect(result.code).toBe(1);
    } finally {
      await rm(reports, { recursive: true, force: true });
    }
  }, 90_000);
});
