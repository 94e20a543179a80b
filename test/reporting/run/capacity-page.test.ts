import { describe, expect, it } from "vitest";
import type { CapacityDigest } from "../../../reporting/run/capacity-page.ts";
import {
  chartInput,
  digestCapacity,
  renderCapacityBody,
  renderCapacityPage,
} from "../../../reporting/run/capacity-page.ts";
import { markupElements } from "../../support/report-markup.ts";

/** A capacity run's summary.json as the load command writes it: three steps and its objectives. */
const SUMMARY = {
  metrics: {},
  harness: {
    verdictLine: "PASSED: capacity 40 events/s",
    result: { outcome: "passed" },
    capacity: {
      held: 40,
      broken: { rate: 80 },
      objectives: [
        { metric: "http_req_duration{endpoint:events}", expression: "p(95)<500" },
        { metric: "events_failed", expression: "rate<0.01" },
      ],
      steps: [
        {
          index: 1,
          phase: "ramp",
          rate: 40,
          outcome: "held",
          judgedSeconds: 20,
          events: 800,
          acceptedPerSecond: 40,
          latency: { p50: 3, p95: 9, p99: 20 },
          failureRate: 0,
          dropped: 0,
        },
        {
          index: 2,
          phase: "ramp",
          rate: 80,
          outcome: "broken",
          judgedSeconds: 20,
          events: 1600,
          acceptedPerSecond: 70,
          latency: { p50: 30, p95: 700, p99: 900 },
          failureRate: 0.12,
          dropped: 3,
          brokenBy: [{ metric: "http_req_duration", expression: "p(95)<500", observed: "p(95)=700ms" }],
        },
        {
          index: 3,
          phase: "probe",
          rate: 160,
          outcome: "generator",
          generator: { signals: [{ detail: "k6 used 99 % of its CPU." }, { detail: "47 VUs short." }] },
        },
      ],
    },
  },
};

describe("digestCapacity", () => {
  it("reads the figure, the verdict, the objectives and every step of a capacity search", () => {
    const digest = digestCapacity(SUMMARY);
    expect(digest).toMatchObject({
      verdictLine: "PASSED: capacity 40 events/s",
      outcome: "passed",
      held: 40,
      broken: 80,
      limitedAt: undefined,
      objectives: SUMMARY.harness.capacity.objectives,
    });
    expect(digest?.steps.map((s) => [s.index, s.rate, s.outcome, s.p95, s.failureRate, s.why])).toEqual([
      [1, 40, "held", 9, 0, ""],
      [2, 80, "broken", 700, 0.12, "http_req_duration p(95)<500 p(95)=700ms"],
      [3, 160, "generator", undefined, 0, "k6 used 99 % of its CPU. 47 VUs short."],
    ]);
  });

  it("is undefined for a summary without a capacity search", () => {
    expect(digestCapacity(undefined)).toBeUndefined();
    expect(digestCapacity([])).toBeUndefined();
    expect(digestCapacity({ harness: {} })).toBeUndefined();
    expect(digestCapacity({ harness: { capacity: "40" } })).toBeUndefined();
  });

  it("leaves out malformed steps and objectives, and gives a step without an outcome no verdict", () => {
    const digest = digestCapacity({
      harness: {
        capacity: {
          held: "40",
          objectives: [{ metric: "events_failed" }, "rate<0.01", { metric: "m", expression: "e" }],
          steps: [
            { index: 1, rate: 0 },
            { index: 2, rate: -5 },
            { rate: 10 },
            { index: 4, rate: Number.NaN },
            "step",
            { index: 5, rate: 20, reason: "k6 stopped", failureRate: "lots" },
            { index: 6, rate: 30, outcome: "broken", reason: "no event was accepted" },
          ],
        },
      },
    });
    expect(digest?.held).toBeUndefined();
    expect(digest?.objectives).toEqual([{ metric: "m", expression: "e" }]);
    expect(digest?.steps.map((s) => [s.index, s.outcome, s.failureRate, s.events, s.why])).toEqual([
      [5, "no-verdict", 0, 0, "k6 stopped"],
      [6, "broken", 0, 0, "no event was accepted"],
    ]);
  });
});

describe("chartInput", () => {
  const digest = (objectives: CapacityDigest["objectives"]): CapacityDigest => ({
    verdictLine: undefined,
    outcome: undefined,
    held: 10,
    broken: undefined,
    limitedAt: undefined,
    objectives,
    steps: [],
  });

  it("turns the events latency objectives into labelled lines and the failure rate into a limit", () => {
    const input = chartInput(
      digest([
        { metric: "http_req_duration{endpoint:events}", expression: "p(95)<500" },
        { metric: "http_req_duration{endpoint:events,expected_response:true}", expression: " med <= 120.5 " },
        { metric: "events_failed", expression: "rate<=0.02" },
      ]),
    );
    expect(input.latencyLimits).toEqual([
      { label: "p95 objective < 500 ms", ms: 500 },
      { label: "med objective < 120.5 ms", ms: 120.5 },
    ]);
    expect(input.failureLimit).toBe(0.02);
    expect(input.held).toBe(10);
  });

  it("draws no line for another metric's objective or an expression it cannot read", () => {
    const input = chartInput(
      digest([
        { metric: "http_req_duration{endpoint:token}", expression: "p(95)<500" },
        { metric: "http_req_duration{endpoint:events}", expression: "p(95)>500" },
        { metric: "http_req_failed", expression: "rate<0.01" },
        { metric: "events_failed", expression: "count<10" },
      ]),
    );
    expect(input.latencyLimits).toEqual([]);
    expect(input.failureLimit).toBeUndefined();
  });
});

describe("renderCapacityBody", () => {
  it("states the figure, where it broke and the verdict, charts the steps and lists each one", () => {
    const digest = digestCapacity(SUMMARY) as CapacityDigest;
    const elements = markupElements(renderCapacityBody("cap", digest));
    const callout = elements.find((e) => e.tag === "div" && e.attributes.class?.startsWith("callout"));
    expect(callout?.attributes.class).toBe("callout held");
    expect(callout?.text).toBe(
      "Capacity: highest rate held 40 events/s · first broken at 80 events/s" +
        "PASSED: capacity 40 events/s",
    );
    expect(elements.filter((e) => e.tag === "figure").map((f) => f.attributes.id)).toEqual([
      "cap-latency",
      "cap-failures",
    ]);
    const rows = elements.filter((e) => e.tag === "tr" && e.attributes["data-outcome"] !== undefined);
    expect(rows.map((r) => r.attributes["data-outcome"])).toEqual(["held", "broken", "generator"]);
    const cells = (row: number) =>
      elements
        .filter((e) => e.tag === "td")
        .slice(row * 12, row * 12 + 12)
        .map((c) => c.text);
    expect(cells(1)).toEqual([
      "2",
      "ramp",
      "80",
      "20.0 s",
      "1.6k",
      "70",
      "30",
      "700",
      "900",
      "12 %",
      "3",
      "broken http_req_duration p(95)<500 p(95)=700ms",
    ]);
    expect(cells(2).slice(6, 9)).toEqual(["–", "–", "–"]);
    const pills = elements.filter((e) => e.tag === "span" && e.attributes.class?.startsWith("pill"));
    expect(pills.map((p) => p.attributes.class)).toEqual(["pill held", "pill broken", "pill undecided"]);
  });

  it("says no rate held, in a broken callout, and the generator's limit when there was one", () => {
    const digest: CapacityDigest = {
      verdictLine: undefined,
      outcome: "undecided",
      held: undefined,
      broken: undefined,
      limitedAt: 20,
      objectives: [],
      steps: [],
    };
    const elements = markupElements(renderCapacityBody("cap", digest));
    const callout = elements.find((e) => e.tag === "div");
    expect(callout?.attributes.class).toBe("callout broken");
    expect(callout?.text).toBe(
      "Capacity: no rate held · the generator, not the API, limited the step at 20 events/s",
    );
    expect(elements.some((e) => e.tag === "br")).toBe(false);
  });
});

describe("renderCapacityPage", () => {
  const page = (outcome: string | undefined, held: number | undefined, target = "https://api.example") =>
    renderCapacityPage({ ...(digestCapacity(SUMMARY) as CapacityDigest), outcome, held }, target);
  const h1 = (html: string) => /<h1 id="verdict" data-verdict="([a-z]+)">([^<]*)<\/h1>/.exec(html)?.slice(1);

  it("heads the page with the capacity and the run's outcome as its verdict", () => {
    expect(h1(page("passed", 40))).toEqual(["passed", "Capacity 40 events/s"]);
    expect(h1(page("failed", undefined))).toEqual(["failed", "No rate held"]);
    expect(h1(page("aborted", 40))?.[0]).toBe("aborted");
    expect(h1(page(undefined, 40))?.[0]).toBe("undecided");
    expect(h1(page("something else", 40))?.[0]).toBe("undecided");
  });

  it("is a whole page with its policy, and shows the target as text", () => {
    const html = page("passed", 40, "https://api.example/<script>alert(1)</script>");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("Content-Security-Policy");
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain("Target: https://api.example/&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('<a href="summary.md">summary.md</a>');
  });
});
