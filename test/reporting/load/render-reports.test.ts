import { describe, expect, it } from "vitest";
import {
  EVENT_DURATION,
  EVENT_REDIRECTS,
  EXPIRY,
  METRIC,
  planIdleGaps,
  TOKEN_FAILURES,
  tokenRefreshes,
} from "../../../load/index.ts";
import type { ReportContext, SummaryData } from "../../../reporting/load/index.ts";
import { renderReports, thresholdResults } from "../../../reporting/load/index.ts";
import { codeSpanOf, liveNodes, tableRowCells } from "../../support/markdown-tree.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

type Metrics = Record<string, SummaryData["metrics"][string]>;

function counter(count: number, thresholds?: Record<string, boolean>): Metrics[string] {
  return {
    type: "counter",
    contains: "default",
    values: { count, rate: count / 10 },
    ...(thresholds
      ? { thresholds: Object.fromEntries(Object.entries(thresholds).map(([k, ok]) => [k, { ok }])) }
      : {}),
  };
}

function summary(metrics: Metrics): SummaryData {
  return {
    // 10 s of load after the context's 2 s token warm-up.
    state: { testRunDurationMs: 12_000 },
    metrics: {
      [METRIC.eventsRejected]: counter(10),
      [`${METRIC.eventsRejected}{status:503}`]: counter(8, { "count>=0": true }),
      [METRIC.eventsFailed]: {
        type: "rate",
        contains: "default",
        values: { rate: 0.05, passes: 10, fails: 190 },
        thresholds: { "rate<0.01": { ok: false } },
      },
      [EVENT_DURATION]: {
        type: "trend",
        contains: "time",
        values: { avg: 3, med: 2, "p(90)": 5, "p(95)": 7.5, "p(99)": 12, max: 30 },
        thresholds: { "p(95)<500": { ok: true }, "count>=0": { ok: true } },
      },
      iterations: counter(205),
      "iterations{scenario:sustained}": counter(200, { "count>=0": true }),
      [METRIC.tokenRequests]: counter(5),
      [`${METRIC.tokenRequests}{reason:initial}`]: counter(5, { "count>=0": true }),
      [EXPIRY.unexpected]: counter(0, { "count==0": true }),
      [EXPIRY.outlived]: counter(0, { "count==0": true }),
      ...metrics,
    },
  };
}

const context = sustainedReportContext;

describe("thresholdResults", () => {
  it("lists failures first, with the observed aggregate, and leaves observation-only thresholds out", () => {
    const results = thresholdResults(summary({}));
    expect(results[0]).toEqual({
      metric: METRIC.eventsFailed,
      expression: "rate<0.01",
      ok: false,
      observed: "rate=5%",
    });
    expect(results.find((r) => r.metric === EVENT_DURATION)?.observed).toBe("p(95)=7.5ms");
    expect(results.some((r) => r.expression === "count>=0")).toBe(false);
  });

  it.each([
    // A failure just over the limit keeps its decimals, in the expression's unit, never "500 ms" or "1 s".
    ["p(95)<500", false, 500.3, "p(95)=500.3ms"],
    ["p(95)<1000", false, 1000.4, "p(95)=1000.4ms"],
    ["p(95)<500", false, 1500, "p(95)=1500ms"],
    // Two decimals would read as a pass (500 <= 500), or as a failure (500 < 500): more decimals until they do not.
    ["p(95)<=500", false, 500.001, "p(95)=500.001ms"],
    ["p(95)<500", true, 499.999, "p(95)=499.999ms"],
    ["p(95)<500", false, 500.001, "p(95)=500ms"],
    ["max<2000", true, 12.3456, "max=12.35ms"],
  ])("shows %s (ok: %s) at %d ms as %s", (expression, ok, value, observed) => {
    const data = summary({
      [EVENT_DURATION]: {
        type: "trend",
        contains: "time",
        values: { [expression.replace(/[<>=].*$/, "")]: value },
        thresholds: { [expression]: { ok } },
      },
    });
    expect(thresholdResults(data).find((r) => r.metric === EVENT_DURATION)?.observed).toBe(observed);
  });

  it("shows a rate in percent, with the decimals that keep a failure from reading as a pass", () => {
    const rate = (expression: string, value: number, ok: boolean) =>
      thresholdResults(
        summary({
          [METRIC.eventsFailed]: {
            type: "rate",
            contains: "default",
            values: { rate: value },
            thresholds: { [expression]: { ok } },
          },
        }),
      ).find((r) => r.metric === METRIC.eventsFailed)?.observed;
    expect(rate("rate<0.01", 0.05, false)).toBe("rate=5%");
    expect(rate("rate<=0.01", 0.0100001, false)).toBe("rate=1.00001%");
  });
});

describe("renderReports", () => {
  it("names redirected events 3xx, not other", () => {
    const { input, text } = renderReports(
      summary({ [EVENT_REDIRECTS]: counter(2, { "count>=0": true }) }),
      context,
    );
    expect(input.facts.rejectedByStatus).toEqual([
      ["503", 8],
      ["3xx", 2],
    ]);
    expect(text).toContain("not accepted 10 [503×8 3xx×2]");
  });
  it("reports throughput, rejections by status, latency percentiles and token counts", () => {
    const { markdown, text, input } = renderReports(summary({}), context);
    expect(input.facts).toMatchObject({ eventsAccepted: 190, acceptedPerSecond: 19, droppedIterations: 0 });
    expect(input.facts.rejectedByStatus).toEqual([
      ["503", 8],
      ["other", 2],
    ]);
    expect(markdown).toContain(
      "**Result: FAILED: 1 threshold crossed: events\\_failed rate\\<0.01 (rate=5%)**",
    );
    expect(markdown).toContain("| ✗ FAIL | `events_failed` | `rate<0.01` | rate=5% |");
    expect(markdown).toContain("- Events accepted: 190 (19/s)");
    expect(markdown).toContain("| events | 3 | 2 | 5 | 7.5 | 12 | 30 |");
    expect(markdown).toContain("Token requests: 5 (initial 5)");
    expect(markdown).toContain("| Load | 20 events/s, for 10s, 5 VUs, after a 2s token warm-up |");
    expect(text).toContain("✗ events_failed rate<0.01  (rate=5%)");
    expect(text).toContain(
      "latency  avg=3 ms · med=2 ms · p(90)=5 ms · p(95)=8 ms · p(99)=12 ms · max=30 ms\n",
    );
    expect(markdown).toContain("| Run time | 12.0 s |");
    expect(text).toContain("FAILED: 1 threshold crossed: events_failed rate<0.01 (rate=5%)");
  });

  it("counts refreshes as issued idle, lifetime and rejected token requests, and failures by their outcome", () => {
    const { markdown, text, input } = renderReports(
      summary({
        [METRIC.tokenRequests]: counter(12),
        [`${METRIC.tokenRequests}{reason:idle}`]: counter(4, { "count>=0": true }),
        [`${METRIC.tokenRequests}{reason:rejected}`]: counter(3, { "count>=0": true }),
        [tokenRefreshes("idle")]: counter(3, { "count>=0": true }),
        [tokenRefreshes("lifetime")]: counter(0, { "count>=0": true }),
        [tokenRefreshes("rejected")]: counter(2, { "count>=0": true }),
        [TOKEN_FAILURES]: counter(2, { "count>=0": true }),
      }),
      context,
    );
    expect(input.facts).toMatchObject({ tokenRequests: 12, tokenRefreshes: 5, tokenFailures: 2 });
    expect(markdown).toContain("Token requests: 12 (initial 5, idle 4, rejected 3)");
    expect(markdown).toContain("- Refreshes (a held token replaced): 5\n- Failed token requests: 2\n");
    expect(text).toContain("tokens   requests 12, refreshes 5, failed 2, ");
  });

  it("counts events not accepted from events_failed, as the error rate does, and their statuses from events_rejected", () => {
    const metrics = summary({}).metrics;
    const { [METRIC.eventsRejected]: _total, ...withoutTotal } = metrics;
    const { markdown, input } = renderReports({ ...summary({}), metrics: withoutTotal }, context);
    expect(input.facts).toMatchObject({ eventsAccepted: 190, eventsRejected: 10, errorRate: 0.05 });
    expect(markdown).toContain("- Events not accepted: 10 (5%): 503 × 8, other × 2");
  });

  it("counts the scenario's own iterations against the planned ones, without the warm-up's", () => {
    const { markdown, input } = renderReports(summary({}), context);
    expect(input.facts.iterations).toBe(200);
    expect(markdown).toContain("- Iterations: 200 of 200 planned, dropped: 0");
    const full = summary({});
    const metrics = Object.fromEntries(
      Object.entries(full.metrics).filter(([name]) => name !== "iterations{scenario:sustained}"),
    );
    const withoutWarmUp = renderReports({ ...full, metrics }, { ...context, warmUpSeconds: 0 });
    expect(withoutWarmUp.input.facts).toMatchObject({ iterations: 205, acceptedPerSecond: 190 / 12 });
  });

  it("gives a run stopped during its warm-up no load seconds and no rate", () => {
    const { input } = renderReports({ ...summary({}), state: { testRunDurationMs: 1_000 } }, context);
    expect(input.facts).toMatchObject({
      runSeconds: 1,
      warmUpSeconds: 2,
      loadSeconds: 0,
      acceptedPerSecond: 0,
    });
  });

  it("calls sliding expiry held when tokens stayed valid in use past expires_in + margin after issue, none rejected", () => {
    const { input, text } = renderReports(
      summary({ [EXPIRY.extended]: counter(5, { "count>=0": true }) }),
      context,
    );
    expect(input.verdict.level).toBe("held");
    expect(text).toContain(
      "5 tokens stayed valid while in use past expires_in + 0.2s after their issue, and no token in use was rejected over 190 accepted events",
    );
  });

  it("says sliding expiry was not exercised when no token lived past expires_in + margin, and how long a run would take", () => {
    // Many events on few tokens, none rejected: a lifetime fixed from issue would give the same.
    const { input, text, markdown, junit } = renderReports(summary({}), context);
    expect(input.verdict.level).toBe("not-exercised");
    expect(input.verdict.reasons).toEqual([
      "no token was accepted expires_in + margin (2.2s) or longer after its issue, so a lifetime fixed from issue would have passed this run too.",
      "It takes tokens in use for longer than that: --duration 4s or longer, with each VU sending at least every 1.8s (expires_in − margin); idle-gap tests the whole rule.",
    ]);
    expect(text).toContain("SLIDING EXPIRY: NOT EXERCISED");
    expect(markdown).toContain("## Sliding expiry: NOT EXERCISED");
    expect(junit).toContain("<skipped");
  });

  it("says sliding expiry was not exercised by a client that replaces its token at expires_in − margin", () => {
    const { input } = renderReports(summary({}), { ...context, clientModel: "cache-until-expiry" });
    expect(input.verdict.level).toBe("not-exercised");
    expect(input.verdict.reasons[0]).toContain("--client-model sliding or refresh-on-401, or run idle-gap");
  });

  it("calls sliding expiry broken on an unexpected expiry, and says why", () => {
    const { input, junit, markdown } = renderReports(
      summary({ [EXPIRY.unexpected]: counter(3, { "count==0": false }) }),
      context,
    );
    expect(input.verdict.level).toBe("broken");
    expect(input.verdict.reasons[0]).toMatch(/^3 tokens were rejected \(401\) although last used/);
    expect(markdown).toContain("## Sliding expiry: BROKEN");
    expect(junit).toContain('<failure message="sliding expiry broken" type="contract">');
  });

  it("calls sliding expiry broken when a token outlives its idle gap", () => {
    const { input } = renderReports(
      summary({ [EXPIRY.outlived]: counter(1, { "count==0": false }) }),
      context,
    );
    expect(input.verdict.level).toBe("broken");
    expect(input.verdict.reasons[0]).toMatch(/idle tokens do not expire/);
  });

  it("needs idle-gap to see every cycle's token survive its mid gap, be used past expires_in, and expire after its long gap", () => {
    const idleGap = planIdleGaps(2, 0.2, undefined);
    const gapContext: ReportContext = { ...context, scenario: "idle-gap", vus: 2, idleGap, rate: undefined };
    const all = {
      [EXPIRY.idle]: counter(4, { "count>=4": true }),
      [EXPIRY.extended]: counter(4, { "count>=4": true }),
      [EXPIRY.survived]: counter(4, { "count>=4": true }),
    };
    const held = renderReports(summary(all), gapContext);
    expect(held.input.verdict).toMatchObject({
      level: "held",
      expectedIdleExpiries: 4,
      idleExpiries: 4,
      extendedTokens: 4,
      idleSurvivals: 4,
    });
    expect(held.input.verdict.reasons[0]).toBe(
      "each of the 4 cycles' tokens survived an idle gap of 1.4s (over half of expires_in), stayed valid while used every 0.5s until past expires_in + 0.2s after its issue, and expired after an idle gap of 3.2s.",
    );
    expect(held.markdown).toContain("| 0 | 0 | 4 of 4 expected | 4 of 4 expected | 4 of 4 expected |");
    for (const [metric, missing] of [
      [EXPIRY.idle, "only 3 of 4 long idle gaps ended in a confirmed expiry."],
      [
        EXPIRY.extended,
        "only 3 of 4 tokens were seen accepted expires_in + 0.2s or longer after their issue.",
      ],
      [
        EXPIRY.survived,
        "only 3 of 4 tokens were seen accepted after an idle gap of 1.4s (over half of expires_in).",
      ],
    ] as const) {
      const short = renderReports(
        summary({ ...all, [metric]: counter(3, { "count>=4": false }) }),
        gapContext,
      );
      expect(short.input.verdict.level).toBe("inconclusive");
      expect(short.input.verdict.reasons[0]).toBe(missing);
      expect(short.junit).toContain("<skipped");
    }
  });

  it("says sliding expiry was not exercised when every iteration got its own token", () => {
    const { input } = renderReports(summary({}), { ...context, clientModel: "token-per-iteration" });
    expect(input.verdict.level).toBe("not-exercised");
  });

  it("writes JUnit with one case per threshold plus the verdict, XML-escaped", () => {
    const { junit } = renderReports(summary({}), context);
    expect(junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    // Five thresholds' cases, the sliding-expiry verdict and the load generator.
    expect(junit).toContain('tests="6" failures="1"');
    expect(junit).toContain('name="load generator"');
    expect(junit).toContain('name="events_failed: rate&lt;0.01"');
    expect(junit).toContain('<failure message="threshold crossed: rate=5%" type="threshold"/>');
    expect(junit).not.toContain("count&gt;=0");
  });

  it("adds the harness's context and verdict to the summary JSON", () => {
    const parsed = JSON.parse(renderReports(summary({}), context).summaryJson) as {
      harness: { context: ReportContext; failedThresholds: unknown[] };
      metrics: unknown;
    };
    expect(parsed.harness.context.scenario).toBe("sustained");
    expect(parsed.harness.failedThresholds).toHaveLength(1);
    expect(parsed.metrics).toBeDefined();
  });

  it("keeps what a target or a user wrote inert in summary.md: inside its callout or cell, without HTML", () => {
    const warnings = [
      "first line\nsecond <script>alert(1)</script>",
      "- a list?\n\n# a heading?",
      "a | pipe\r\n> [!CAUTION] and a `tick`",
    ];
    const metric = "odd`metric|name";
    const { markdown } = renderReports(summary({ [metric]: counter(1, { "count<1`|x": false }) }), {
      ...context,
      targetLabel: "http://x|y/api\n<script>",
      runId: "run`1`",
      warnings,
    });
    // A GFM reader finds no HTML, link or image in it: what the target and the user wrote stays text.
    expect(liveNodes(markdown)).toEqual([]);
    const lines = markdown.split("\n");
    const callouts = lines.flatMap((line, i) => (line === "> [!WARNING]" ? [i] : []));
    expect(callouts).toHaveLength(warnings.length);
    for (const i of callouts) {
      expect(lines[i + 1]).toMatch(/^> [^#>-]/);
      expect(lines[i + 2]).toBe("");
    }
    expect(callouts.map((i) => lines[i + 1])).toEqual([
      "> first line second \\<script\\>alert(1)\\</script\\>",
      "> \\- a list? \\# a heading?",
      "> a \\| pipe \\> \\[!CAUTION\\] and a \\`tick\\`",
    ]);
    const head = lines.slice(lines.indexOf("| | |"), lines.indexOf("| Run time | 12.0 s |") + 1);
    expect(head.every((row) => tableRowCells(row).length === 2)).toBe(true);
    expect(head).toContain("| Target | `http://x\\|y/api <script>` |");
    const runId = head.find((row) => row.startsWith("| Run id |")) ?? "";
    expect(codeSpanOf(tableRowCells(runId)[1])).toBe("run`1`");
    const row = tableRowCells(lines.find((line) => line.startsWith("| ") && line.includes("metric")) ?? "");
    expect(row).toHaveLength(4);
    expect(codeSpanOf(row[1])).toBe(metric);
    expect(codeSpanOf(row[2])).toBe("count<1`|x");
  });
});

describe("renderReports of a run that did not finish", () => {
  /** Every threshold held: only how the run ended can stop these reports from saying PASSED. */
  const allHeld = (): SummaryData => {
    const data = summary({});
    const failed = data.metrics[METRIC.eventsFailed];
    return {
      ...data,
      metrics: {
        ...data.metrics,
        [METRIC.eventsFailed]: { ...(failed as Metrics[string]), thresholds: { "rate<0.01": { ok: true } } },
      },
    };
  };

  it("says PASSED in every output when k6 finished and every threshold held", () => {
    const reports = renderReports(allHeld(), context);
    expect(reports.result.outcome).toBe("passed");
    expect(reports.markdown).toContain("**Result: PASSED: thresholds held**");
    expect(reports.text).toMatch(/^ {2}PASSED: thresholds held$/m);
  });

  it.each([
    ["an interrupted run", { kind: "aborted", reason: "interrupted (received SIGTERM)" }, "ABORTED"],
    ["a run k6 ended with an error", { kind: "undecided", reason: "k6 exited with 107" }, "COULD NOT DECIDE"],
  ] as const)("calls %s what it is in every output, never PASSED", (_label, ending, word) => {
    const reports = renderReports(allHeld(), context, ending);
    expect(reports.result).toMatchObject({ outcome: ending.kind, reason: ending.reason });
    expect(reports.markdown).toContain(`**Result: ${word}: ${ending.reason}**`);
    expect(reports.markdown).not.toContain("PASSED");
    expect(reports.text).toContain(`  ${word}: ${ending.reason}`);
    expect(reports.text).not.toContain("PASSED");
    const summaryJson = JSON.parse(reports.summaryJson) as { harness: { result: unknown } };
    expect(summaryJson.harness.result).toMatchObject({ outcome: ending.kind, reason: ending.reason });
    // CI reads an error, not a green suite: the run itself is a test case that did not pass.
    expect(reports.junit).toMatch(/errors="1"/);
    expect(reports.junit).toContain(`<error message="${word}: ${ending.reason}"`);
  });

  it("keeps a crossed threshold on the page but still calls an interrupted run ABORTED", () => {
    const reports = renderReports(summary({}), context, { kind: "aborted", reason: "interrupted" });
    expect(reports.result.outcome).toBe("aborted");
    expect(reports.markdown).toContain("**Result: ABORTED: interrupted**");
    expect(reports.markdown).toContain("✗ FAIL");
  });
});

describe("dropped iterations", () => {
  const shortage = "Insufficient VUs, reached 5 active VUs and cannot initialize more";
  const dropped = (count: number) =>
    summary({ dropped_iterations: counter(count, { "count<=2": count <= 2 }) });
  const cause =
    'k6 ran out of VUs ("Insufficient VUs, reached 5 active VUs and cannot initialize more"): each iteration holds a VU until the target answers, so 5 VUs could not keep up 20 events/s; raise --vus or lower --rate';

  it("say their cause, in k6's words and what would remove it, on the console and in summary.md and summary.json", () => {
    const { text, markdown, summaryJson } = renderReports(dropped(206), { ...context, vuShortage: shortage });
    expect(text).toContain(`dropped iterations 206: ${cause}`);
    expect(markdown).toContain(`dropped: 206: ${cause.replaceAll("_", "\\_")}`);
    expect(JSON.parse(summaryJson).harness.droppedCause).toBe(cause);
  });

  it("say nothing of a cause when none was dropped or k6 gave none", () => {
    expect(renderReports(dropped(0), { ...context, vuShortage: shortage }).text).not.toContain(
      "ran out of VUs",
    );
    expect(renderReports(dropped(206), context).text).not.toContain("ran out of VUs");
  });
});
