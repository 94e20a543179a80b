import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { EXPIRY, METRIC } from "../../../load/index.ts";
import type { Ledger } from "../../../reporting/accepted/index.ts";
import { applyToComparison } from "../../../reporting/accepted/index.ts";
import { compareLoad, comparisonLine } from "../../../reporting/compare/index.ts";
import type { ReportAddition, SummaryData } from "../../../reporting/load/index.ts";
import { renderReports } from "../../../reporting/load/index.ts";
import type { RunOutcome } from "../../../reporting/run/index.ts";
import { writeRunReport } from "../../../reporting/run/index.ts";
import { sustainedReportContext } from "../../load/run-config-fixture.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";
import { markdownNodes, markdownTree, textOf } from "../../support/markdown-tree.ts";

/** 40 steady seconds whose first six each hold one token request, as a default run takes them. */
const run = (seed: number, tokenMs: readonly number[]) =>
  loadRecord(
    seed,
    steady(40, 2, { tokens: 0 }).map((unit, i) =>
      i < tokenMs.length ? { ...unit, tokens: 1, tokenMs: tokenMs[i] as number } : unit,
    ),
  );

const ledger: Ledger = {
  file: "accepted.json",
  today: "2026-11-27",
  entries: [{ id: "baseline.events.p95", reason: "migration", ticket: "API-9", expires: "2027-01-31" }],
};

/** A baseline comparison as the load command adds it: token latency has six requests a side and is not judged. */
function addition(): ReportAddition {
  const { comparison, outcomes } = applyToComparison(
    compareLoad(run(1, [4, 30, 8, 16, 5, 40]), run(2, [6, 4, 35, 9, 20, 5])),
    ledger,
  );
  return {
    baseline: { regressed: [], fails: false, accepted: outcomes, line: comparisonLine(comparison) },
    junitSuites: [],
    markdown: "",
  };
}

function summary(): SummaryData {
  const counter = (count: number, thresholds: Record<string, boolean> = {}) => ({
    type: "counter" as const,
    contains: "default",
    values: { count, rate: count / 10 },
    thresholds: Object.fromEntries(Object.entries(thresholds).map(([k, ok]) => [k, { ok }])),
  });
  return {
    state: { testRunDurationMs: 12_000 },
    metrics: {
      [METRIC.eventsFailed]: {
        type: "rate",
        contains: "default",
        values: { rate: 0, passes: 0, fails: 200 },
        thresholds: { "rate<0.01": { ok: true } },
      },
      iterations: counter(200),
      [METRIC.tokenRequests]: counter(6),
      [EXPIRY.unexpected]: counter(0, { "count==0": true }),
      [EXPIRY.extended]: counter(3),
    },
  };
}

const LINE =
  "PASSED: thresholds held; baseline UNCHANGED (token latency not judged: 6 samples, 7.99 ms → 6.82 ms); ledger: 1 STALE";

describe("the verdict line shows the gate", () => {
  it("reconciles thresholds, baseline and ledger in the load command's console, summary.md and summary.json", () => {
    const reports = renderReports(summary(), sustainedReportContext, undefined, addition(), ledger);
    expect(reports.text.trimEnd().split("\n").at(-1)).toBe(`  ${LINE}`);
    expect(reports.markdown).toContain(`**Result: ${LINE}**`);
    expect(JSON.parse(reports.summaryJson).harness.verdictLine).toBe(LINE);
  });

  it("puts each part's gate in run.json, the top of summary.md and the run's verdict line", async ({
    tmpDir: dir,
  }) => {
    await mkdir(path.join(dir, "contract"));
    await mkdir(path.join(dir, "load-sustained"));
    const reports = renderReports(summary(), sustainedReportContext, undefined, addition(), ledger);
    await writeFile(path.join(dir, "load-sustained", "summary.json"), reports.summaryJson);
    const check = (id: string, status: string) => ({ id, status, area: id.split(".")[0], evidence: [] });
    await writeFile(
      path.join(dir, "contract", "results.json"),
      JSON.stringify({
        suite: "contract (full)",
        checks: [check("token.issued", "PASS"), check("lifetime.sliding", "WAIVED")],
        accepted: [{ entry: { id: "lifetime.sliding" }, state: "waived", detail: "fails, waived" }],
      }),
    );
    const part = (id: string, kind: "contract" | "load") => ({
      id,
      kind,
      title: id,
      command: `npx event-harness ${kind}`,
      verdict: "passed" as const,
      exitCode: 0,
      startedAt: "2026-11-27T00:00:00.000Z",
      durationMs: 1000,
    });
    const outcome: RunOutcome = {
      tool: { name: "event-api-harness", version: "0.1.0" },
      runId: "r",
      startedAt: "2026-11-27T00:00:00.000Z",
      durationMs: 2000,
      verdict: "passed",
      target: { embedded: true },
      parts: [part("contract", "contract"), part("load-sustained", "load")],
    };
    const { run: written } = await writeRunReport(dir, outcome, "index.html");
    const expected =
      "PASSED — 2 of 2 parts passed · contract: 1 WAIVED, 1 PASS · load-sustained: thresholds held; baseline UNCHANGED (token latency not judged: 6 samples, 7.99 ms → 6.82 ms); ledger: 1 STALE";
    expect(written.verdictLine).toBe(expected);
    const json = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8"));
    expect(json.verdictLine).toBe(expected);
    expect(json.parts[1].gate).toBe(
      "thresholds held; baseline UNCHANGED (token latency not judged: 6 samples, 7.99 ms → 6.82 ms); ledger: 1 STALE",
    );
    // Read as GitHub renders it: the paragraph under the headline is the verdict line, in bold.
    const tree = markdownTree(await readFile(path.join(dir, "summary.md"), "utf8"));
    const [heading, paragraph] = tree.children;
    expect(heading?.type).toBe("heading");
    const strong = markdownNodes(paragraph ?? tree).find((node) => node.type === "strong");
    expect(strong === undefined ? undefined : textOf(strong)).toBe(expected);
  });
});
