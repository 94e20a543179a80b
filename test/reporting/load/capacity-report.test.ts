import { describe, expect, it } from "vitest";
import type {
  CapacityReport,
  CapacityStepResult,
  CapacityStop,
  GeneratorVerdict,
} from "../../../reporting/load/index.ts";
import {
  capacityFigure,
  capacityLoadResult,
  describeResult,
  renderCapacityJson,
  renderCapacityJunit,
  renderCapacityMarkdown,
  renderCapacityText,
} from "../../../reporting/load/index.ts";
import { digestCapacity, renderCapacityPage } from "../../../reporting/run/index.ts";
import { junitCases } from "../../support/junit-cases.ts";
import { liveNodes, tablesOf, textOf } from "../../support/markdown-tree.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

const keptUp: GeneratorVerdict = { limited: false, signals: [], measured: "k6 kept up." };
const limited: GeneratorVerdict = {
  limited: true,
  signals: [
    {
      kind: "dropped",
      remedy: "instances",
      short: "900 iterations dropped with VUs to spare",
      detail:
        "k6 dropped 900 iterations (its guard allows 30) while the target's answers kept about 3 of its 800 VUs busy.",
    },
  ],
  measured: "k6 used 40 % of its 2 CPUs.",
};

let index = 0;
function step(
  rate: number,
  outcome: CapacityStepResult["outcome"],
  extra: Partial<CapacityStepResult> = {},
): CapacityStepResult {
  index += 1;
  const broken = outcome === "broken";
  return {
    index,
    rate,
    phase: "up",
    warmUpSeconds: 5,
    judgedSeconds: 10,
    plannedIterations: rate * 10,
    maxVus: rate,
    dir: `steps/${index}-${rate}`,
    outcome,
    reason: undefined,
    brokenBy: broken
      ? [
          {
            metric: "http_req_duration{endpoint:events,scenario:capacity}",
            expression: "p(95)<500",
            ok: false,
            observed: "p(95)=812ms",
          },
        ]
      : [],
    violations: [],
    events: rate * 10,
    accepted: rate * 10,
    acceptedPerSecond: rate,
    failureRate: broken ? 0.02 : 0,
    latency: { p50: broken ? 300 : 2, p95: broken ? 812 : 6, p99: broken ? 900 : 9, avg: 3 },
    dropped: 0,
    generator: outcome === "generator" ? limited : keptUp,
    k6CpuShare: 0.3,
    expiry: { unexpected: 0, outlived: 0, extended: 4 },
    ...extra,
  };
}

const search = {
  startRate: 100,
  factor: 2,
  resolution: { kind: "relative", value: 0.05 } as const,
  maxRate: 20_000,
  maxSteps: 15,
  timeBoundSeconds: 600,
  stepWarmUpSeconds: 5,
  stepSeconds: 10,
  eventsPerStep: 1000,
};

function report(unnumbered: CapacityStepResult[], stop: CapacityStop): CapacityReport {
  const steps = unnumbered.map((s, i) => ({ ...s, index: i + 1 }));
  const figure = capacityFigure(steps, stop, search.resolution);
  return {
    context: { ...sustainedReportContext, scenario: "capacity", rate: 100 },
    search,
    objectives: [
      { metric: "http_req_duration{endpoint:events}", expression: "p(95)<500" },
      { metric: "events_failed", expression: "rate<0.01" },
    ],
    steps,
    figure,
    result: capacityLoadResult(figure, steps, [], undefined),
    runSeconds: 120,
  };
}

describe("a capacity search's figure and verdict", () => {
  it("passes with the highest rate held and the lowest broken, and names what broke it", () => {
    const steps = [
      step(100, "held"),
      step(200, "held"),
      step(400, "broken"),
      step(300, "held"),
      step(350, "broken"),
    ];
    const r = report(steps, "bracketed");
    expect(r.figure).toMatchObject({ kind: "bracketed", held: 300, resolution: 50 });
    expect(r.figure.broken?.rate).toBe(350);
    expect(r.result.outcome).toBe("passed");
    expect(describeResult(r.result)).toBe(
      "PASSED: capacity 300 events/s (350/s broke http_req_duration{endpoint:events} p(95)<500 (p(95)=812ms))",
    );
  });

  it("never counts a step the generator limited as held, and says it limited the search", () => {
    const steps = [step(1000, "held"), step(2000, "generator"), step(2000, "generator"), step(1500, "held")];
    const r = report(steps, "generator");
    expect(r.figure).toMatchObject({ kind: "at-least", held: 1500 });
    expect(r.figure.limited?.rate).toBe(2000);
    expect(r.result.outcome).toBe("passed");
    expect(describeResult(r.result)).toContain(
      "capacity at least 1500 events/s: the generator, not the API, limited this search at 2000/s (900 iterations dropped with VUs to spare): use --instances N",
    );
  });

  it("has no verdict when the generator limited the very first step, and fails when no rate held", () => {
    const first = report([step(30_000, "generator"), step(30_000, "generator")], "generator");
    expect(first.result.outcome).toBe("undecided");
    expect(first.figure.held).toBeUndefined();
    expect(describeResult(first.result)).toMatch(
      /^COULD NOT DECIDE: the generator, not the API, limited this search from its first step at 30000\/s/,
    );
    const none = report([step(20, "broken"), step(10, "broken"), step(5, "broken")], "min-rate");
    expect(none.result.outcome).toBe("failed");
    expect(describeResult(none.result)).toContain(
      "FAILED: no rate held: every rate tried broke its objectives, down to 5/s",
    );
  });

  it("a retry's verdict replaces the first attempt's", () => {
    const steps = [
      step(100, "held"),
      step(200, "generator"),
      step(200, "held", { phase: "retry" }),
      step(400, "broken"),
    ];
    const r = report(steps, "bracketed");
    expect(r.figure.held).toBe(200);
    expect(r.figure.limited).toBeUndefined();
  });

  it("fails on a contract violation in any step, whatever the capacity", () => {
    const violation = {
      metric: "token_expiries{kind:unexpected}",
      expression: "count==0",
      ok: false,
      observed: "count=3",
    };
    const steps = [
      step(100, "held"),
      step(200, "broken", { brokenBy: [violation], violations: [violation] }),
    ];
    const r = report(steps, "bracketed");
    expect(r.result.outcome).toBe("failed");
    expect(describeResult(r.result)).toContain(
      "a contract violation under load: token_expiries{kind:unexpected} count==0 at 200/s",
    );
  });

  it("is aborted when a step was stopped, and keeps the steps that ran", () => {
    const steps = [step(100, "held"), step(200, "aborted", { reason: "interrupted (received SIGINT)" })];
    const r = report(steps, "aborted");
    expect(r.result.outcome).toBe("aborted");
    expect(describeResult(r.result)).toBe("ABORTED: step 2 at 200/s: interrupted (received SIGINT)");
  });
});

describe("a capacity run's reports", () => {
  const steps = [step(100, "held"), step(200, "broken"), step(150, "held"), step(175, "generator")];
  const r = report(steps, "steps");

  it("summary.md: the figure, the objectives, a row per step", () => {
    const markdown = renderCapacityMarkdown(r);
    expect(liveNodes(markdown)).toEqual([]);
    expect(markdown).toContain("## Capacity: 150 events/s");
    expect(markdown).toContain("- Highest rate held: **150 events/s**, within 50/s");
    const table = tablesOf(markdown).find((rows) => rows[0]?.length === 13) ?? [];
    const rows = table.slice(1).map((cells) => cells.map((cell) => textOf(cell)));
    expect(rows.map((cells) => [cells[0], cells[2], cells.at(-1)?.split(":")[0]])).toEqual([
      ["1", "100", "held"],
      ["2", "200", "BROKEN"],
      ["3", "150", "held"],
      ["4", "175", "GENERATOR"],
    ]);
    expect(markdown).toContain("## Load generator");
  });

  it("junit.xml: the figure as a case, a case per step, the generator's limit skipped with why", () => {
    const cases = junitCases(renderCapacityJunit(r));
    const capacity = cases.find((c) => c.name === "capacity");
    expect(capacity?.failure).toBeUndefined();
    expect(capacity?.error).toBeUndefined();
    expect(cases.filter((c) => c.classname === "load.capacity.steps").map((c) => c.name)).toEqual([
      "step 1: 100/s",
      "step 2: 200/s",
      "step 3: 150/s",
      "step 4: 175/s",
    ]);
    expect(cases.find((c) => c.name === "load generator")?.skipped?.message).toContain(
      "the generator, not the API, limited the step at 175/s",
    );
  });

  it("summary.json and capacity.html: the figure and every step, read back by the run's own reader", () => {
    const json = JSON.parse(renderCapacityJson(r, null)) as {
      harness: { capacity: { held: number; broken: { rate: number }; limitedAt: number; steps: unknown[] } };
    };
    expect(json.harness.capacity).toMatchObject({ held: 150, broken: { rate: 200 }, limitedAt: 175 });
    expect(json.harness.capacity.steps).toHaveLength(4);
    const digest = digestCapacity(json);
    expect(digest?.steps.map((s) => [s.rate, s.outcome])).toEqual([
      [100, "held"],
      [200, "broken"],
      [150, "held"],
      [175, "generator"],
    ]);
    const html = renderCapacityPage(digest as NonNullable<typeof digest>, "http://x/<b>api</b>");
    expect(html).toContain("Capacity 150 events/s");
    expect(html).toContain("http://x/&lt;b&gt;api&lt;/b&gt;");
    // p50, p95 and p99 drawn at the three steps with figures (the limited one too, marked apart), and failures.
    for (const series of ["p50", "p95", "p99", "failed"])
      expect(html).toContain(`data-series="${series}" data-points="4"`);
    expect(html).toContain("p95 objective &lt; 500 ms");
    expect(html).toContain("held 150/s");
  });

  it("the terminal: the step table and the verdict, without Markdown", () => {
    const text = renderCapacityText(r);
    expect(text).toContain("CAPACITY: 150 events/s");
    expect(text).not.toContain("\\_");
    expect(text).toContain("PASSED: capacity 150 events/s");
  });
});
