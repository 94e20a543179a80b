import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { CheckResult } from "../../../contracts/index.ts";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { REPORT_FILES, writeContractReports } from "../../../reporting/contract/index.ts";
import { contractRun } from "../../support/contract-run.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { markdownTree, textOf } from "../../support/markdown-tree.ts";

const RUN: ContractRun = contractRun(
  [
    {
      id: "token.a",
      title: "t",
      area: "token",
      level: "MUST",
      rule: "r",
      status: "FAIL",
      message: "m",
      durationMs: 1,
      evidence: [],
    } satisfies CheckResult,
  ],
  { durationMs: 1000 },
);

describe("writeContractReports", () => {
  it("creates the folder and writes results.json, junit.xml and summary.md, each readable by its own reader", async ({
    tmpDir,
  }) => {
    const dir = path.join(tmpDir, "reports", "contract");
    const files = await writeContractReports(RUN, dir);
    expect(files).toEqual(REPORT_FILES.map((name) => path.join(dir, name)));
    const results = JSON.parse(await readFile(path.join(dir, "results.json"), "utf8")) as { verdict: string };
    expect(results.verdict).toBe("failed");
    const cases = junitCases(await readFile(path.join(dir, "junit.xml"), "utf8"));
    expect(cases.map((c) => c.failure?.message)).toEqual(["m"]);
    const summary = markdownTree(await readFile(path.join(dir, "summary.md"), "utf8"));
    expect(textOf(summary.children[0] as never)).toBe("❌ Contract broken — 1 FAIL (token.a)");
  });

  it("writes into a folder that exists, replacing earlier reports", async ({ tmpDir }) => {
    await writeContractReports({ ...RUN, checks: [] }, tmpDir);
    await writeContractReports(RUN, tmpDir);
    const results = JSON.parse(await readFile(path.join(tmpDir, "results.json"), "utf8")) as {
      checks: unknown[];
    };
    expect(results.checks).toHaveLength(1);
    expect((await stat(path.join(tmpDir, "summary.md"))).isFile()).toBe(true);
  });

  it("fails, saying why, when its folder cannot be made", async ({ tmpDir }) => {
    await writeContractReports(RUN, tmpDir);
    await expect(writeContractReports(RUN, path.join(tmpDir, "results.json", "sub"))).rejects.toThrow(
      /ENOTDIR|EEXIST/,
    );
  });
});
