import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ContractRun } from "../../../reporting/contract/index.ts";
import { renderJunitXml } from "../../../reporting/contract/junit-xml.ts";
import type { PartOutcome, RunOutcome } from "../../../reporting/run/index.ts";
import { RUN_REPORT_FILES, writeRunReport } from "../../../reporting/run/index.ts";
import { contractRun } from "../../support/contract-run.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { markdownTree, textOf } from "../../support/markdown-tree.ts";
import { CONTRACT_CHECKS } from "./report-fixture.ts";

const part = (
  id: string,
  verdict: PartOutcome["verdict"],
  kind: PartOutcome["kind"] = "contract",
): PartOutcome => ({
  id,
  kind,
  title: id,
  command: `event-harness ${id}`,
  verdict,
  exitCode: verdict === "skipped" ? null : verdict === "failed" ? 1 : 0,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1000,
});

const RUN: RunOutcome = {
  tool: { name: "event-api-harness", version: "1.0.0" },
  runId: "run-1",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 3000,
  verdict: "failed",
  target: { embedded: true },
  parts: [part("contract", "failed"), part("rotation", "skipped", "rotation")],
};

const CONTRACT_RUN: ContractRun = contractRun(CONTRACT_CHECKS, {
  durationMs: 1000,
  target: {
    ...contractRun([]).target,
    tokenUrl: "http://a/oauth/token",
    baseUrl: "http://b",
    embedded: true,
  },
});

/** A contract part's folder as the contract command leaves it: results.json, summary.md and junit.xml. */
async function contractPart(runDir: string): Promise<void> {
  const dir = path.join(runDir, "contract");
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "results.json"),
    JSON.stringify({ suite: "contract (fast)", durationMs: 1000, checks: CONTRACT_CHECKS }),
  );
  await writeFile(path.join(dir, "summary.md"), "# The contract part's own summary\n\nall of it\n");
  await writeFile(path.join(dir, "junit.xml"), renderJunitXml(CONTRACT_RUN));
}

describe("writeRunReport", () => {
  it("writes the four report files next to the parts and returns them", async ({ tmpDir }) => {
    await contractPart(tmpDir);
    const written = await writeRunReport(tmpDir, RUN, "runs/run-1/index.html");
    expect(written.files).toEqual(
      ["junit.xml", "index.html", "summary.md", "run.json"].map((name) => path.join(tmpDir, name)),
    );
    expect([...RUN_REPORT_FILES].sort()).toEqual(written.files.map((f) => path.basename(f)).sort());
  });

  it("keeps each part's gate and the verdict line in run.json, as it returns them", async ({ tmpDir }) => {
    await contractPart(tmpDir);
    const written = await writeRunReport(tmpDir, RUN, "index.html");
    const runJson = JSON.parse(await readFile(path.join(tmpDir, "run.json"), "utf8")) as RunOutcome;
    expect(runJson).toEqual(JSON.parse(JSON.stringify(written.run)));
    expect(runJson.parts[0]?.gate).toBe("1 FAIL (bearer.garbage), 1 ERROR (events.stored), 1 WARN, 4 PASS");
    expect(runJson.parts[1]?.gate).toBeUndefined();
    expect(runJson.verdictLine).toBe(
      "FAILED — contract: 1 FAIL (bearer.garbage), 1 ERROR (events.stored), 1 WARN, 4 PASS · not run: rotation · 0 of 2 parts passed",
    );
    expect(written.clauses.count).toBe("0 of 2 parts passed");
  });

  it("leads with every part that did not pass, and folds each part's own summary into summary.md", async ({
    tmpDir,
  }) => {
    await contractPart(tmpDir);
    const written = await writeRunReport(tmpDir, RUN, "index.html");
    expect(written.leads.map((lead) => [lead.part.id, lead.evidence])).toEqual([
      ["contract", "contract/summary.md"],
      ["rotation", undefined],
    ]);
    const summary = markdownTree(await readFile(path.join(tmpDir, "summary.md"), "utf8"));
    const headings = summary.children.filter((n) => n.type === "heading").map((n) => textOf(n));
    expect(headings).toContain("The contract part's own summary");
    const html = await readFile(path.join(tmpDir, "index.html"), "utf8");
    expect(html).toContain('id="part-contract"');
  });

  it("leaves a part that never ran out of the leads when the target could not be tested", async ({
    tmpDir,
  }) => {
    const untested: RunOutcome = {
      ...RUN,
      verdict: "undecided",
      couldNotTest: "no token",
      parts: [part("contract", "skipped")],
    };
    const written = await writeRunReport(tmpDir, untested, "index.html");
    expect(written.leads).toEqual([]);
    expect(written.run.verdictLine).toBe("COULD NOT DECIDE — not run: contract · 0 of 1 part passed");
  });

  it("combines the parts' JUnit, a part without one standing as a case of its own", async ({ tmpDir }) => {
    await contractPart(tmpDir);
    await writeRunReport(tmpDir, RUN, "index.html");
    const cases = junitCases(await readFile(path.join(tmpDir, "junit.xml"), "utf8"));
    expect(
      cases.filter((c) => c.classname.startsWith("event-api-harness.bearer")).map((c) => c.name),
    ).toContain("bearer.garbage: The bearer.garbage rule holds");
    const rotation = cases.find((c) => c.classname === "event-api-harness.run.rotation");
    expect(rotation?.skipped).toBeDefined();
  });
});
