import { describe, expect, it } from "vitest";
import type {
  ContractComparison,
  FigureComparison,
  LoadComparison,
} from "../../../reporting/compare/index.ts";
import {
  comparisonJunitSuite,
  comparisonLine,
  renderComparisonMarkdown,
  renderComparisonText,
  renderContractComparisonText,
} from "../../../reporting/compare/index.ts";
import { renderJunitXml } from "../../../reporting/index.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { liveNodes, markdownTree, tablesOf, textOf } from "../../support/markdown-tree.ts";

const ms = (value: number) => `${value.toFixed(1)} ms`;

function figure(
  id: FigureComparison["id"],
  status: FigureComparison["status"],
  extra: Partial<FigureComparison> = {},
): FigureComparison {
  return {
    id,
    label: `${id} per 1 s`,
    short: id,
    window: undefined,
    baseline: 10,
    candidate: 18,
    shift: {
      baselineCount: 40,
      candidateCount: 40,
      estimate: 8,
      low: 6,
      high: 10,
      pValue: 0.001,
      confidence: 0.95,
    },
    status,
    margin: 2,
    reason: `${status} because`,
    samples: { baseline: 40, candidate: 40, of: "units of 1 s" },
    format: ms,
    ...extra,
  };
}

const comparison = (figures: FigureComparison[], extra: Partial<LoadComparison> = {}): LoadComparison => ({
  figures,
  windows: [],
  windowsJudged: 0,
  windowSeconds: 60,
  notes: [],
  ...extra,
});

describe("comparisonLine", () => {
  it("says UNCHANGED alone when every figure was judged unchanged", () => {
    expect(
      comparisonLine(comparison([figure("events.p50", "UNCHANGED"), figure("events.p95", "UNCHANGED")])),
    ).toBe("baseline UNCHANGED");
  });

  it("names regressed, waived, inconclusive and improved figures with their shift or margin, signed", () => {
    const line = comparisonLine(
      comparison([
        figure("events.p95", "REGRESSED"),
        figure("events.p99", "WAIVED"),
        figure("events.p50", "INCONCLUSIVE"),
        figure("token.p50", "IMPROVED", {
          shift: {
            baselineCount: 9,
            candidateCount: 9,
            estimate: -3,
            low: -4,
            high: -2,
            pValue: 0.01,
            confidence: 0.95,
          },
        }),
      ]),
    );
    expect(line).toBe(
      "baseline REGRESSED (events.p95 +8.0 ms; events.p99 +8.0 ms WAIVED; events.p50: the interval reaches past 2.0 ms; token.p50 -3.0 ms)",
    );
  });

  it("always names a figure not judged, with its samples and what each side read", () => {
    const line = comparisonLine(
      comparison([
        figure("events.p50", "UNCHANGED"),
        figure("token.p50", "NOT JUDGED", {
          samples: { baseline: 6, candidate: 6, of: "token requests" },
          baseline: 4,
          candidate: 40,
        }),
        figure("events.p99", "NOT JUDGED", {
          samples: {
            baseline: 20,
            candidate: 1,
            of: "token requests",
            units: { baseline: 2, candidate: 1, ms: 500 },
          },
          candidate: undefined,
        }),
      ]),
    );
    expect(line).toBe(
      "baseline UNCHANGED (token.p50 not judged: 6 samples, 4.0 ms → 40.0 ms; events.p99 not judged: 20 and 1 samples from 2 and 1 units of 500 ms)",
    );
  });

  it("says INCONCLUSIVE, and why, when no figure had the samples to be judged", () => {
    const line = comparisonLine(
      comparison([
        figure("events.p50", "NOT JUDGED", { samples: { baseline: 1, candidate: 1, of: "units" } }),
      ]),
    );
    expect(line).toBe(
      "baseline INCONCLUSIVE: no figure had the samples to be judged (events.p50 not judged: 1 sample, 10.0 ms → 18.0 ms)",
    );
  });

  it("names a window that regressed with where it lies in the run", () => {
    const window = figure("events.p95", "REGRESSED", { window: { fromSeconds: 240, toSeconds: 300 } });
    expect(
      comparisonLine(
        comparison([figure("events.p95", "UNCHANGED")], { windows: [window], windowsJudged: 5 }),
      ),
    ).toBe("baseline REGRESSED (events.p95 (window 240–300 s) +8.0 ms)");
  });
});

describe("renderComparisonText", () => {
  it("leads with the baseline and the line, then notes, one line per figure and the windows judged", () => {
    const window = figure("events.p95", "REGRESSED", {
      window: { fromSeconds: 240, toSeconds: 300 },
      candidate: undefined,
    });
    const text = renderComparisonText(
      comparison([figure("events.p50", "UNCHANGED")], {
        windows: [window],
        windowsJudged: 5,
        notes: ["k6 v1 → v2"],
      }),
      "baseline.json",
    );
    expect(text.split("\n")).toEqual([
      "  Baseline comparison against baseline.json: baseline REGRESSED (events.p95 (window 240–300 s) +8.0 ms)",
      "    Note: k6 v1 → v2",
      "    UNCHANGED    events.p50 per 1 s: 10.0 ms → 18.0 ms; UNCHANGED because",
      "    5 window(s) of 60 s judged on their own:",
      "      REGRESSED    events.p95 per 1 s (window 240–300 s): 10.0 ms → —; REGRESSED because",
      "",
    ]);
  });

  it("says the windows all stayed unchanged when none is listed, and nothing of windows when none was judged", () => {
    const some = renderComparisonText(
      comparison([figure("events.p50", "UNCHANGED")], { windowsJudged: 3 }),
      "b",
    );
    expect(some).toContain("    3 window(s) of 60 s judged on their own: all UNCHANGED\n");
    expect(renderComparisonText(comparison([figure("events.p50", "UNCHANGED")]), "b")).not.toContain(
      "window",
    );
  });
});

describe("renderComparisonMarkdown", () => {
  it("is a section with the verdict, the notes and one row per figure, a regression in bold", () => {
    const markdown = renderComparisonMarkdown(
      comparison(
        [figure("events.p50", "UNCHANGED"), figure("events.p95", "REGRESSED", { reason: "shift | wide" })],
        {
          notes: ["instances 1 → 2"],
        },
      ),
      "baseline.json",
    );
    const tree = markdownTree(markdown);
    expect(textOf(tree.children[0] as never)).toBe("Baseline comparison");
    expect(textOf(tree.children[1] as never)).toMatch(
      /^Against baseline\.json: baseline REGRESSED \(events\.p95 \+8\.0 ms\)\. /,
    );
    expect(textOf(tree.children[2] as never)).toBe("Note: instances 1 → 2");
    const [table] = tablesOf(markdown);
    expect(table?.map((row) => row.map((cell) => textOf(cell)))).toEqual([
      ["status", "figure", "where", "baseline", "this run", "why"],
      ["UNCHANGED", "events.p50 per 1 s", "whole run", "10.0 ms", "18.0 ms", "UNCHANGED because"],
      ["REGRESSED", "events.p95 per 1 s", "whole run", "10.0 ms", "18.0 ms", "shift | wide"],
    ]);
    const strong = table?.[2]?.[0]?.children[0];
    expect(strong?.type).toBe("strong");
  });

  it("keeps a baseline's file name and a note inert", () => {
    const markdown = renderComparisonMarkdown(
      comparison([figure("events.p50", "UNCHANGED")], {
        notes: ["another origin: [x](javascript:alert(1))"],
      }),
      "<img src=x onerror=alert(1)>.json",
    );
    expect(liveNodes(markdown)).toEqual([]);
  });
});

describe("comparisonJunitSuite", () => {
  it("fails a regressed figure, skips inconclusive, not judged and waived ones, and passes the rest", () => {
    const suite = comparisonJunitSuite(
      comparison(
        [
          figure("events.p50", "UNCHANGED"),
          figure("events.p95", "REGRESSED"),
          figure("events.p99", "INCONCLUSIVE"),
          figure("token.p50", "NOT JUDGED"),
          figure("events.failure-rate", "WAIVED"),
          figure("events.accepted-rate", "IMPROVED"),
        ],
        {
          windows: [figure("events.p95", "REGRESSED", { window: { fromSeconds: 0, toSeconds: 60 } })],
          windowsJudged: 1,
        },
      ),
      "load-sustained",
    );
    const cases = junitCases(renderJunitXml({ name: "run", seconds: 0, suites: [suite] }));
    const outcome = (c: (typeof cases)[number]) =>
      c.failure ? "failure" : c.skipped ? "skipped" : c.error ? "error" : "passed";
    expect(cases.map((c) => [c.name, c.classname, outcome(c)])).toEqual([
      ["events.p50", "load-sustained.baseline", "passed"],
      ["events.p95", "load-sustained.baseline", "failure"],
      ["events.p99", "load-sustained.baseline", "skipped"],
      ["token.p50", "load-sustained.baseline", "skipped"],
      ["events.failure-rate", "load-sustained.baseline", "skipped"],
      ["events.accepted-rate", "load-sustained.baseline", "passed"],
      ["events.p95 window 0–60 s", "load-sustained.baseline", "failure"],
    ]);
    expect(cases[1]?.failure?.message).toBe("REGRESSED: REGRESSED because");
    expect(cases[3]?.skipped?.message).toBe("NOT JUDGED: NOT JUDGED because");
    expect(suite.cases[0]?.output).toBe("10.0 ms → 18.0 ms: UNCHANGED because");
  });
});

describe("renderContractComparisonText", () => {
  const empty: ContractComparison = {
    differences: [],
    newlyFailing: [],
    fixed: [],
    newlyRun: [],
    noLongerRun: [],
    otherChanges: [],
    unchanged: 30,
  };

  it("says no check newly fails, with every count, when nothing changed", () => {
    expect(renderContractComparisonText(empty, (t) => t).split("\n")).toEqual([
      "  Contract comparison: no check newly fails",
      "    newly failing: 0",
      "    fixed: 0",
      "    newly run: 0",
      "    no longer run: 0",
      "    other changes: 0",
      "    unchanged: 30",
      "",
    ]);
  });

  it("says REGRESSED for a newly failing check, lists each change and cleans every text from the files", () => {
    const text = renderContractComparisonText(
      {
        ...empty,
        differences: ["profile fast → full"],
        newlyFailing: [{ id: "bearer.garbage", baseline: "PASS", candidate: "FAIL" }],
        newlyRun: [{ id: "lifetime.\u001b[31mred", baseline: undefined, candidate: "PASS" }],
        noLongerRun: [{ id: "token.old", baseline: "PASS", candidate: undefined }],
      },
      (t) => t.replace(/\p{Cc}/gu, "?"),
    );
    expect(text.split("\n")).toEqual([
      "  Contract comparison: REGRESSED",
      "    The runs differ: profile fast → full",
      "    newly failing: 1",
      "      bearer.garbage: PASS → FAIL",
      "    fixed: 0",
      "    newly run: 1",
      "      lifetime.?[31mred: not run → PASS",
      "    no longer run: 1",
      "      token.old: PASS → not run",
      "    other changes: 0",
      "    unchanged: 30",
      "",
    ]);
  });
});
