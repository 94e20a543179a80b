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
import { describe, expect, it } from "../../support/fixtures.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";
import { markdownNodes, markdownTree, textOf } from "../../support/markdown-tree.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

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
  "PASSED: thresholds held; baseline UNCHANGED (token latency not judged: 6 samples, 7.99 ms → 6.82 ms); STALE WAIVER: baseline.events.p95";

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
      "PASSED — STALE WAIVER: baseline.events.p95 · 2 of 2 parts passed · contract: 1 WAIVED, 1 PASS · load-sustained: thresholds held; baseline UNCHANGED (token latency not judged: 6 samples, 7.99 ms → 6.82 ms)";
    expect(written.verdictLine).toBe(expected);
    const json = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8"));
    expect(json.verdictLine).toBe(expected);
    expect(json.parts[1].gate).toBe(
      "thresholds held; baseline UNCHANGED (token latency not judged: 6 samples, 7.99 ms → 6.82 ms)",
    );
    // Read as GitHub renders it: the paragraph under the headline is the verdict line, in bold.
    const tree = markdownTree(await readFile(path.join(dir, "summary.md"), "utf8"));
    const [heading, paragraph] = tree.children;
    expect(heading?.type).toBe("heading");
    const strong = markdownNodes(paragraph ?? tree).find((node) => node.type === "strong");
    expect(strong === undefined ? undefined : textOf(strong)).toBe(expected);
  });
});

describe("the failure leads", () => {
  it("names each failed part and its failed check ids or figures before anything that passed", async ({
    tmpDir: dir,
  }) => {
    const { writeFixtureRun } = await import("./report-fixture.ts");
    const { run: written } = await writeRunReport(dir, await writeFixtureRun(dir), "index.html");
    const expected =
      "FAILED — contract: 1 FAIL (bearer.garbage), 1 ERROR (events.stored), 1 WARN, 4 PASS · load-sustained: 1 threshold crossed: token_expiries{kind:unexpected} count==0 (count=1) · load-idle-gap: could not run: k6 is missing · 1 of 4 parts passed";
    expect(written.verdictLine).toBe(expected);
    expect(JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")).verdictLine).toBe(expected);
    // summary.md's first lines: the headline names the failed parts, the verdict line, then the problems.
    const summary = await readFile(path.join(dir, "summary.md"), "utf8");
    const [heading, paragraph, problemsHeading, list] = markdownTree(summary).children;
    expect(heading === undefined ? undefined : textOf(heading)).toBe(
      "❌ Failed — contract, load-sustained failed; load-idle-gap could not decide; 1 of 4 parts passed (embedded sandbox — not your API)",
    );
    expect(paragraph === undefined ? undefined : textOf(paragraph)).toBe(expected);
    expect(problemsHeading === undefined ? undefined : textOf(problemsHeading)).toBe("Problems");
    expect(list?.type).toBe("list");
    expect(summary.indexOf("### Problems")).toBeLessThan(summary.indexOf("| Part |"));
    // The page opens on the problems, each linked to its evidence, before the parts.
    const html = await readFile(path.join(dir, "index.html"), "utf8");
    const body = html.slice(html.indexOf("<body>"));
    expect(body).toContain(`<p class="verdict-line">${expected}</p>`);
    const problems = body.indexOf('<section class="problems" id="problems"');
    expect(problems).toBeGreaterThan(0);
    expect(problems).toBeLessThan(body.indexOf('class="parts"'));
    const section = body.slice(problems, body.indexOf("</section>", problems));
    expect(section.indexOf('href="#check-bearer.garbage"')).toBeGreaterThan(0);
    expect(section.indexOf('href="#check-bearer.garbage"')).toBeLessThan(
      section.indexOf('href="#part-load-sustained"'),
    );
    expect(section).toContain("token_expiries{kind:unexpected} count==0</code> (count=1)");
  });

  it("says a stale waiver of a MUST check at the verdict line's head, in summary.md and at the HTML's top", async ({
    tmpDir: dir,
  }) => {
    await mkdir(path.join(dir, "contract"));
    const check = (id: string) => ({
      id,
      status: "PASS",
      area: id.split(".")[0],
      level: "MUST",
      evidence: [],
    });
    const entry = { id: "lifetime.sliding", reason: "Keycloak", ticket: "API-1", expires: "2027-01-31" };
    await writeFile(
      path.join(dir, "contract", "results.json"),
      JSON.stringify({
        suite: "contract (full)",
        checks: [check("token.issued"), check("lifetime.sliding")],
        acceptedFile: "accepted.json",
        accepted: [{ entry, state: "stale", detail: "passes now: remove the entry", level: "MUST" }],
      }),
    );
    const outcome: RunOutcome = {
      tool: { name: "event-api-harness", version: "0.1.0" },
      runId: "r",
      startedAt: "2026-11-27T00:00:00.000Z",
      durationMs: 2000,
      verdict: "passed",
      target: { embedded: true },
      parts: [
        {
          id: "contract",
          kind: "contract",
          title: "Contract suite (full profile)",
          command: "npx --no-install event-harness contract",
          verdict: "passed",
          exitCode: 0,
          startedAt: "2026-11-27T00:00:00.000Z",
          durationMs: 1000,
        },
      ],
    };
    const { run: written } = await writeRunReport(dir, outcome, "index.html");
    expect(written.verdictLine).toBe("PASSED — STALE WAIVER: lifetime.sliding · 1 of 1 part passed");
    const warning =
      "STALE WAIVER: lifetime.sliding (MUST) passes, and accepted.json still waives it until 2027-01-31: remove the entry, or its next failure reads WAIVED and passes";
    const summary = (await readFile(path.join(dir, "summary.md"), "utf8")).split("\n");
    expect(summary.slice(4, 6)).toEqual(["> [!WARNING]", `> ${warning}`]);
    const html = await readFile(path.join(dir, "index.html"), "utf8");
    const banner = html.slice(html.indexOf('<header class="banner'), html.indexOf("</header>"));
    expect(banner).toContain(`<p class="warning" role="alert">⚠ ${warning}</p>`);
  });
});
