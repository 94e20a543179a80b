import { execFileSync } from "node:child_process";
import { copyFile, mkdir, readdir, symlink } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import packageJson from "../../../package.json" with { type: "json" };
import { buildCli } from "../../../scripts/build/build-cli.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { runCli } from "../../support/run-cli.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** A package root as `npm pack` ships it, built once for the file: the launcher and the compiled CLI, no TypeScript sources. */
const it = base
  .extend("packageRoot", { scope: "file" }, async ({ fileDir }) => {
    await buildCli(path.join(fileDir, "dist", "cli"));
    await mkdir(path.join(fileDir, "bin"));
    await copyFile(path.join(ROOT, "bin", "event-harness.js"), path.join(fileDir, "bin", "event-harness.js"));
    await copyFile(path.join(ROOT, "bin", "node-support.js"), path.join(fileDir, "bin", "node-support.js"));
    await copyFile(path.join(ROOT, "package.json"), path.join(fileDir, "package.json"));
    await symlink(path.join(ROOT, "node_modules"), path.join(fileDir, "node_modules"), "dir");
    return fileDir;
  })
  .extend("launcher", { scope: "file" }, async ({ packageRoot }) =>
    path.join(packageRoot, "bin", "event-harness.js"),
  );

describe("the compiled CLI", () => {
  it("holds no TypeScript, and one chunk per lazily loaded module", async ({ packageRoot }) => {
    const files = await readdir(path.join(packageRoot, "dist", "cli"));
    expect(files).toContain("event-harness.js");
    expect(files).toContain("contract-suite.js");
    expect(files.filter((file) => file.endsWith(".ts"))).toEqual([]);
    expect(files.filter((file) => /^chunk-.*\.js$/.test(file)).length).toBeGreaterThan(5);
    // The build runs in this test's fixture setup.
  }, 60_000);

  it("the launcher of a package without sources runs the build: --help lists every command", async ({
    launcher,
  }) => {
    const result = await runCli(["--help"], {}, 30_000, launcher);
    expect(result.code).toBe(0);
    for (const name of ["run", "contract", "load", "openapi", "k6"])
      expect(result.stdout).toContain(`  ${name} `);
  });

  it("the launcher of a package without sources prints the version and the commit built from for --version", async ({
    launcher,
  }) => {
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

  it("runs the compiled contract suite against the embedded sandbox", async ({
    launcher,
    tmpDir: reports,
  }) => {
    const result = await runCli(
      ["contract", "--only", "token.issued,bearer.missing", "--report-dir", reports],
      {},
      60_000,
      launcher,
    );
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.stdout).toContain("Verdict: PASSED — 2 PASS");
    expect(result.code).toBe(0);
  }, 90_000);

  it("the compiled contract suite still fails a faulty target (exit 1)", async ({
    launcher,
    tmpDir: reports,
  }) => {
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
  }, 90_000);
});
