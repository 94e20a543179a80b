import { describe, expect, it } from "vitest";
import { niceTicks, timeTicks } from "../../../reporting/run/chart-scale.ts";
import { renderChart } from "../../../reporting/run/svg-chart.ts";

describe("chart scales", () => {
  it("picks nice ticks that cover the maximum", () => {
    expect(niceTicks(22)).toEqual([0, 10, 20, 30]);
    expect(niceTicks(18)).toEqual([0, 5, 10, 15, 20]);
    expect(niceTicks(0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(0)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(2, 4, true)).toEqual([0, 1, 2]);
    expect(niceTicks(7, 4, true)).toEqual([0, 2, 4, 6, 8]);
  });

  it("labels time at human steps", () => {
    expect(timeTicks(30)).toEqual([0, 5, 10, 15, 20, 25, 30]);
    expect(timeTicks(3600).slice(0, 3)).toEqual([0, 600, 1200]);
  });

  it("writes the time axis in k6's compact durations", () => {
    const svg = renderChart({
      id: "t",
      title: "Throughput",
      unit: "/s",
      stepSeconds: 30,
      series: [{ name: "accepted", values: new Array<number>(180).fill(1), color: "#123456", kind: "line" }],
    });
    const labels = Array.from(
      svg.matchAll(/<text class="tick"[^>]*text-anchor="middle">([^<]*)</g),
      (m) => m[1],
    );
    expect(labels).toEqual(["0s", "15m", "30m", "45m", "1h", "1h15m", "1h30m"]);
  });
});

describe("renderChart", () => {
  it("draws lines that break at gaps, stacked bars, and a legend with totals and peaks", () => {
    const svg = renderChart({
      id: "c1",
      title: "Throughput",
      unit: "/s",
      stepSeconds: 1,
      series: [
        { name: "accepted", values: [1, 2, null, 4], color: "#123456", kind: "line" },
        { name: "refresh", values: [0, 1, 0, 2], color: "#654321", kind: "bar" },
      ],
    });
    expect(svg).toContain('data-series="accepted" data-points="3"');
    expect(svg).toMatch(/<path d="M[\d. ]+L[\d. ]+M[\d. ]+"/);
    expect(svg).toContain('data-series="refresh" data-points="2"');
    expect(/data-series="refresh"[^>]*>(.*?)<\/g>/.exec(svg)?.[1]?.match(/<rect /g)).toHaveLength(2);
    expect(svg).toContain("peak 4/s");
    expect(svg).toContain("total 3");
    expect(svg).not.toContain("none during the run");
  });

  it("escapes every text it is given, in content and in the data attribute", () => {
    const svg = renderChart({
      id: 'x"><script>',
      title: "<b>t</b>",
      unit: "&",
      stepSeconds: 1,
      series: [{ name: '"><img src=x>', values: [1], color: '"red', kind: "line" }],
    });
    expect(svg).not.toMatch(/<(script|img|b)[ >]/);
    expect(svg).toContain("&lt;b&gt;t&lt;/b&gt;");
    expect(svg).toContain("&quot;&gt;&lt;img src=x&gt;");
  });

  it("says so when there was nothing to draw", () => {
    const svg = renderChart({
      id: "c",
      title: "Violations",
      unit: "/s",
      stepSeconds: 1,
      series: [{ name: "violations", values: [0, 0, 0], color: "#f00", kind: "bar" }],
    });
    expect(svg).toContain("none during the run");
    expect(svg).toContain('data-points="0"');
  });
});

describe("renderChart bands", () => {
  it("draws a baseline band behind the lines, on the same scale, and lists it in the legend", () => {
    const svg = renderChart({
      id: "l",
      title: "Event latency",
      unit: "ms",
      stepSeconds: 1,
      series: [{ name: "p95", values: [1, 2, 3], color: "#123456", kind: "line" }],
      bands: [{ name: "baseline p50–p95", from: 10, to: 20, color: "#64748b" }],
    });
    const band =
      /<rect class="band" data-band="baseline p50–p95" x="44" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/.exec(
        svg,
      );
    expect(band).not.toBeNull();
    // The scale reaches the band's top (20 ms): the band spans half of the plot's 168 px height.
    expect(Number(band?.[2])).toBeCloseTo(84, 0);
    expect(svg.indexOf('class="band"')).toBeLessThan(svg.indexOf('class="series line"'));
    expect(svg).toContain('baseline p50–p95 <span class="muted">10–20 ms</span>');
  });
});
