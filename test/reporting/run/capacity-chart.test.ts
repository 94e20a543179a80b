import { describe, expect, it } from "vitest";
import type { CapacityChartInput, CapacityPoint } from "../../../reporting/run/capacity-chart.ts";
import { renderCapacityCharts } from "../../../reporting/run/capacity-chart.ts";
import { elementsOf, markupElements } from "../../support/report-markup.ts";

const point = (rate: number, outcome: string, p95: number | undefined, failureRate = 0): CapacityPoint => ({
  rate,
  outcome,
  p50: p95 === undefined ? undefined : p95 / 2,
  p95,
  p99: p95 === undefined ? undefined : p95 * 2,
  failureRate,
});

// Three steps of a search: 10/s held, 20/s broken, 40/s limited by the generator (no latency judged).
const SEARCH: CapacityChartInput = {
  points: [point(20, "broken", 600, 0.05), point(40, "generator", undefined), point(10, "held", 5)],
  held: 10,
  latencyLimits: [{ label: "p95 < 500 ms", ms: 500 }],
  failureLimit: 0.01,
};

/** The figure with this id, as its own fragment of elements. */
function figure(html: string, id: string) {
  const all = markupElements(html);
  const start = all.findIndex((element) => element.tag === "figure" && element.attributes.id === id);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = all.findIndex((element, i) => i > start && element.tag === "figure");
  return all.slice(start, end === -1 ? undefined : end);
}

const ticksOf = (elements: ReturnType<typeof figure>, anchor: "middle" | "end") =>
  elements
    .filter(
      (e) => e.tag === "text" && e.attributes.class === "tick" && e.attributes["text-anchor"] === anchor,
    )
    .map((e) => e.text);

describe("renderCapacityCharts", () => {
  it("says there is nothing to chart when no step finished, and draws no SVG", () => {
    const html = renderCapacityCharts("cap", {
      points: [],
      held: undefined,
      latencyLimits: [],
      failureLimit: undefined,
    });
    expect(html).toContain("No step finished");
    expect(elementsOf(html, "svg")).toEqual([]);
  });

  it("draws a latency and a failures figure, named after the part, as well-formed markup", () => {
    const html = renderCapacityCharts("capacity", SEARCH);
    expect(elementsOf(html, "figure").map((f) => f.attributes.id)).toEqual([
      "capacity-latency",
      "capacity-failures",
    ]);
    expect(elementsOf(html, "svg", "chart-svg")).toHaveLength(2);
  });

  it("puts the rate offered on a log axis with 1-2-5 ticks around the steps, and the highest rate held on it", () => {
    const latency = figure(renderCapacityCharts("cap", SEARCH), "cap-latency");
    // Rates 10 to 40 give an axis from 10 / 1.25 = 8 to 40 × 1.25 = 50: the 1-2-5 ticks inside are 10, 20, 50.
    expect(ticksOf(latency, "middle")).toEqual(["10", "20", "50", "held 10/s"]);
    // x(10) = 58 + ln(10 / 8) / ln(50 / 8) × 1044 = 185.1.
    const held = latency.find((e) => e.tag === "line" && e.attributes.class === "held");
    expect(held?.attributes.x1).toBe("185.1");
    const tick50 = latency.find(
      (e) => e.tag === "text" && e.text === "50" && e.attributes["text-anchor"] === "middle",
    );
    expect(tick50?.attributes.x).toBe("1102");
  });

  it("leaves a step without latency out of the latency lines, and marks steps held, broken and limited apart", () => {
    const latency = figure(renderCapacityCharts("cap", SEARCH), "cap-latency");
    const groups = latency.filter((e) => e.tag === "g" && e.attributes["data-series"] !== undefined);
    expect(groups.map((g) => [g.attributes["data-series"], g.attributes["data-points"]])).toEqual([
      ["p50", "2"],
      ["p95", "2"],
      ["p99", "2"],
    ]);
    const p95Marks = latency.filter((e) => e.tag === "circle" && e.attributes.stroke === "#f59e0b");
    expect(p95Marks.map((m) => [m.attributes.class, m.attributes.fill])).toEqual([
      ["mark held", "#f59e0b"],
      ["mark broken", "#fff"],
    ]);
    const failures = figure(renderCapacityCharts("cap", SEARCH), "cap-failures");
    expect(failures.filter((e) => e.tag === "path" && e.attributes.class === "mark generator")).toHaveLength(
      1,
    );
    const failed = failures.find((e) => e.tag === "g" && e.attributes["data-series"] === "failed");
    expect(failed?.attributes["data-points"]).toBe("3");
  });

  it("draws the path from the lowest rate up, whatever order the steps came in", () => {
    const failures = figure(renderCapacityCharts("cap", SEARCH), "cap-failures");
    const path = failures.find(
      (e) => e.tag === "path" && e.attributes.stroke === "#dc2626" && e.attributes.fill === "none",
    );
    const xs = Array.from(path?.attributes.d?.matchAll(/[ML]([\d.]+) /g) ?? [], (m) => Number(m[1]));
    expect(xs).toHaveLength(3);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it("scales failures in percent to a nice top that holds the worst step and the objective", () => {
    const failures = figure(renderCapacityCharts("cap", SEARCH), "cap-failures");
    // Worst step 5 %, objective 1 %: ticks every 2 % up to 6 %.
    expect(ticksOf(failures, "end").filter((t) => /^\d+$/.test(t))).toEqual(["0", "2", "4", "6"]);
    const objective = failures.find((e) => e.tag === "text" && e.text.startsWith("objective"));
    expect(objective?.text).toBe("objective < 1 %");
    // y(5 %) = 26 + 198 − 5 / 6 × 198 = 59.
    const marks = failures.filter((e) => e.tag === "circle");
    expect(marks.map((m) => m.attributes.cy)).toEqual(["224", "59"]);
  });

  it("draws the latency objective with its label and names it in the legend only when there is one", () => {
    const html = renderCapacityCharts("cap", SEARCH);
    const latency = figure(html, "cap-latency");
    expect(latency.filter((e) => e.tag === "line" && e.attributes.class === "limit")).toHaveLength(1);
    expect(latency.some((e) => e.tag === "text" && e.text === "p95 < 500 ms")).toBe(true);
    expect(latency.filter((e) => e.tag === "li").map((li) => li.text)).toContain("objective");
    const bare = figure(
      renderCapacityCharts("cap", { ...SEARCH, latencyLimits: [], failureLimit: undefined }),
      "cap-latency",
    );
    expect(bare.filter((e) => e.tag === "li").map((li) => li.text)).not.toContain("objective");
    expect(bare.filter((e) => e.tag === "line" && e.attributes.class === "limit")).toEqual([]);
  });

  it("keeps hostile text inert: a label, an outcome and an id stay text and attribute values", () => {
    const html = renderCapacityCharts('x"><script>alert(1)</script>', {
      ...SEARCH,
      points: [point(10, '"><script>alert(2)</script>', 5)],
      latencyLimits: [{ label: "<img src=x onerror=alert(3)>", ms: 50 }],
    });
    expect(elementsOf(html, "script")).toEqual([]);
    expect(elementsOf(html, "img")).toEqual([]);
    const ids = elementsOf(html, "figure").map((f) => f.attributes.id);
    expect(ids[0]).toBe('x"><script>alert(1)</script>-latency');
    expect(
      markupElements(html).some((e) => e.tag === "text" && e.text === "<img src=x onerror=alert(3)>"),
    ).toBe(true);
  });
});
