import type { Heading, Table } from "mdast";
import { describe, expect, it } from "vitest";
import type { ReportContext } from "../../../reporting/load/index.ts";
import { describeLoad, generatorSection, renderMarkdown } from "../../../reporting/load/summary-markdown.ts";
import { idleGapPlan as gaps } from "../../support/idle-gap-plan.ts";
import {
  crossedThreshold as crossed,
  heldThreshold as held,
  keptUpGenerator,
  limitedGenerator,
  loadFacts,
  passedResult,
  reportInput,
  redirectsThreshold as waived,
} from "../../support/load-report-input.ts";
import { liveNodes, markdownNodes, markdownTree, textOf } from "../../support/markdown-tree.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

/** The page as a GFM reader parses it, once: its headings' texts, and its tables as rows of cell texts. */
function read(markdown: string): { headings: string[]; tables: string[][][] } {
  const nodes = markdownNodes(markdownTree(markdown));
  return {
    headings: nodes.filter((node): node is Heading => node.type === "heading").map((node) => textOf(node)),
    tables: nodes
      .filter((node): node is Table => node.type === "table")
      .map((table) => table.children.map((row) => row.children.map((cell) => textOf(cell)))),
  };
}

describe("describeLoad", () => {
  it("writes rate, duration, VUs and warm-up as k6 options write durations", () => {
    expect(describeLoad(sustainedReportContext)).toBe(
      "20 events/s, for 10s, 5 VUs, after a 2s token warm-up",
    );
    expect(
      describeLoad({
        ...sustainedReportContext,
        rate: undefined,
        durationSeconds: 90,
        vus: 1,
        warmUpSeconds: 0,
      }),
    ).toBe("for 1m30s, 1 VU");
  });

  it("writes idle-gap's cycles and gaps in place of a duration", () => {
    const context: ReportContext = {
      ...sustainedReportContext,
      rate: undefined,
      idleGap: gaps,
      warmUpSeconds: 0,
    };
    expect(describeLoad(context)).toBe("2 cycles of gaps 1.4s, 3 × 0.5s, 3.2s, bursts of 3, 5 VUs");
  });
});

describe("renderMarkdown", () => {
  it("states the verdict, the run's facts and the sliding-expiry counts in sections a reader finds", () => {
    const markdown = renderMarkdown(reportInput({ thresholds: [held] }));
    expect(markdown.split("\n")[0]).toBe("# Load report: sustained");
    expect(markdown).toContain("**Result: PASSED: thresholds held** · sliding expiry: **HELD**");
    const page = read(markdown);
    expect(page.headings).toEqual([
      "Load report: sustained",
      "Sliding expiry: HELD",
      "Thresholds",
      "Throughput",
      "Load generator: kept up",
      "Latency (ms)",
      "Tokens",
    ]);
    const [facts, expiry, thresholds, latency] = page.tables;
    expect(facts).toContainEqual(["Load", "20 events/s, for 10s, 5 VUs, after a 2s token warm-up"]);
    expect(facts).toContainEqual(["expires_in / margin", "2s / 0.2s"]);
    expect(facts).toContainEqual(["Run time", "12.0 s"]);
    expect(facts?.map((row) => row[0])).not.toContain("Overrides");
    expect(expiry?.[1]).toEqual(["0", "0", "0", "5", "0"]);
    expect(thresholds?.[1]).toEqual(["✓ pass", "events_failed", "rate<0.05", "rate=1.5%"]);
    expect(latency).toEqual([
      ["Requests", "avg", "p(95)"],
      ["events", "4.26", "9.5"],
      ["token requests", "3.1", "–"],
    ]);
    expect(markdown).toContain("- Events accepted: 197 (19.7/s)");
    expect(markdown).toContain("- Events not accepted: 3 (1.5%): 503 × 2, other × 1");
    expect(markdown).toContain("- Iterations: 200 of 200 planned, dropped: 0\n");
    expect(markdown).toContain("- Token requests: 7 (initial 5, idle 2)");
    expect(markdown.endsWith("- Failed token requests: 0\n\n")).toBe(true);
  });

  it("marks each threshold as the verdict reads it: a crossed one the ledger accepts is WAIVED", () => {
    const result = {
      ...passedResult,
      outcome: "failed",
      failedThresholds: [crossed],
      waivedThresholds: [waived],
    } as const;
    const markdown = renderMarkdown(reportInput({ thresholds: [crossed, waived, held], result }));
    const thresholds = read(markdown).tables[2];
    expect(thresholds?.slice(1).map((row) => [row[0], row[3]])).toEqual([
      ["✗ FAIL", "p(95)=9.5ms"],
      ["~ WAIVED", "–"],
      ["✓ pass", "rate=1.5%"],
    ]);
  });

  it("lists the ledger's entries and counts the idle-gap outcomes against those expected", () => {
    const entry = { id: "load.redirects", reason: "proxy", ticket: "OPS-2", expires: "2027-01-31" };
    const result = {
      ...passedResult,
      accepted: [{ entry, state: "waived", detail: "fails, waived: proxy" }],
    } as const;
    const verdict = {
      ...reportInput().verdict,
      idleExpiries: 9,
      extendedTokens: 10,
      idleSurvivals: 10,
      expectedIdleExpiries: 10,
    };
    const markdown = renderMarkdown(reportInput({ result, verdict }));
    const page = read(markdown);
    expect(page.headings).toContain("Accepted deviations");
    expect(markdown).toContain("- WAIVED load.redirects: accepted until 2027-01-31 (OPS-2): proxy");
    expect(page.tables[1]?.[1]).toEqual([
      "0",
      "0",
      "9 of 10 expected",
      "10 of 10 expected",
      "10 of 10 expected",
    ]);
  });

  it("shows each instance's counts and the merged totals of a split run", () => {
    const instance = {
      eventsAccepted: 98,
      eventsRejected: 1,
      iterations: 100,
      droppedIterations: 0,
      tokenRequests: 3,
    };
    const context: ReportContext = {
      ...sustainedReportContext,
      instances: [
        { ...instance, segment: "0:1/2" },
        { ...instance, segment: "1/2:1", eventsAccepted: 99, eventsRejected: 2, tokenRequests: 4 },
      ],
    };
    const markdown = renderMarkdown(reportInput({ context }));
    const page = read(markdown);
    expect(page.headings).toContain(
      "Instances: 2 (merged: counts add, latency from the pooled samples, thresholds on the merged data)",
    );
    const instances = page.tables.find((rows) => rows[0]?.[0] === "Instance");
    expect(instances?.slice(1)).toEqual([
      ["1", "0:1/2", "98", "1", "100", "0", "3"],
      ["2", "1/2:1", "99", "2", "100", "0", "4"],
      ["merged", "", "197", "3", "200", "0", "7"],
    ]);
  });

  it("says so when no request was measured", () => {
    const markdown = renderMarkdown(
      reportInput({ facts: { ...loadFacts, eventLatency: [], tokenLatency: [] } }),
    );
    expect(markdown).toContain("## Latency (ms)\n\n_no requests were measured_\n");
  });

  it("says why iterations were dropped when k6 ran out of VUs", () => {
    const context: ReportContext = {
      ...sustainedReportContext,
      vuShortage: "Insufficient VUs, reached 5 active VUs",
    };
    const markdown = renderMarkdown(reportInput({ context, facts: { ...loadFacts, droppedIterations: 4 } }));
    expect(markdown).toContain(
      '- Iterations: 200 of 200 planned, dropped: 4: k6 ran out of VUs ("Insufficient VUs, reached 5 active VUs")',
    );
  });

  it("keeps a target's label, the user's overrides and warnings inert, each in its own cell or callout", () => {
    const hostile = "https://evil.example/|<img src=x onerror=alert(1)>[click](javascript:alert(1))";
    const context: ReportContext = {
      ...sustainedReportContext,
      targetLabel: hostile,
      runId: "run`|<b>",
      overrides: ["--token-param a|b", "<script>"],
      warnings: ["TLS was not verified <a href='http://evil.example'>x</a>"],
    };
    const markdown = renderMarkdown(reportInput({ context }));
    expect(liveNodes(markdown)).toEqual([]);
    const facts = read(markdown).tables[0];
    expect(facts?.every((row) => row.length === 2)).toBe(true);
    expect(facts).toContainEqual(["Target", hostile]);
    expect(facts).toContainEqual(["Run id", "run`|<b>"]);
    expect(facts).toContainEqual(["Overrides", "--token-param a|b, <script>"]);
  });
});

describe("generatorSection", () => {
  it("says the generator kept up, with what was measured", () => {
    expect(generatorSection(keptUpGenerator)).toEqual([
      "## Load generator: kept up",
      "",
      "Measured: k6 used 12 % of its 2 CPUs over its busiest 5 s.",
      "",
    ]);
  });

  it("says a limited generator's figures are k6's, the remedies of its signals, and each signal", () => {
    const markdown = generatorSection(limitedGenerator).join("\n");
    expect(read(markdown).headings).toEqual(["Load generator: LIMITED"]);
    expect(markdown).toContain(
      "**The generator, not the API, limited this run: use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator); give k6 more VUs (--vus).** Its figures are k6's, not the target's.",
    );
    expect(markdown).toContain("- k6 used 96 % of the 2 CPUs it may run on over its busiest 5 s.");
    expect(markdown).toContain(
      '- k6 warned 3 times that it had no VU to start an iteration with ("Insufficient VUs").',
    );
  });

  it("says k6 was at its limit too, not that it limited the run, when the run failed anyway", () => {
    const markdown = generatorSection(limitedGenerator, true).join("\n");
    expect(read(markdown).headings).toEqual(["Load generator: LIMITED"]);
    expect(markdown).toContain(
      "**k6 was at its own limit too: use --instances N (more k6 processes), or run k6 on a machine of its own (k6-operator); give k6 more VUs (--vus).** The run failed on what no load generator explains; its latency may include k6's own queueing.",
    );
    expect(markdown).not.toContain("not the API");
  });
});
