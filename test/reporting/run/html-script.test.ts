import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { formatDurationCompact, splitDuration } from "../../../reporting/index.ts";
import { DURATION_SCRIPT, REPORT_SCRIPT } from "../../../reporting/run/html-script.ts";

interface FakeNode {
  textContent: string;
  readonly children: FakeNode[];
}

/** Runs the report's script against the least DOM it touches, hovers one chart at `clientX`, and returns the tooltip's head. */
function hoverHead(chart: Record<string, unknown>, clientX: number): string | undefined {
  const handlers = new Map<string, (event: { clientX: number }) => void>();
  const node = (): FakeNode & Record<string, unknown> => {
    const children: FakeNode[] = [];
    return { textContent: "", children, style: {}, appendChild: (child: FakeNode) => children.push(child) };
  };
  const tip = { ...node(), hidden: true, firstChild: null, offsetWidth: 10 };
  const svg = {
    parentNode: { querySelector: () => tip },
    querySelector: () => ({ setAttribute: () => {} }),
    getAttribute: () => JSON.stringify(chart),
    getBoundingClientRect: () => ({ left: 0, width: chart.viewWidth }),
    addEventListener: (name: string, handler: (event: { clientX: number }) => void) =>
      handlers.set(name, handler),
  };
  const document = {
    querySelectorAll: (selector: string) => (selector.startsWith("svg") ? [svg] : []),
    createElement: node,
    createTextNode: (text: string) => ({ textContent: text, children: [] }),
    documentElement: { setAttribute: () => {} },
  };
  runInNewContext(REPORT_SCRIPT, { document });
  handlers.get("mousemove")?.({ clientX });
  return tip.children[0]?.textContent;
}

describe("the report's script", () => {
  it("carries the compact duration formatter's own source, not a copy of it", () => {
    expect(DURATION_SCRIPT).toBe(`${splitDuration.toString()}\n${formatDurationCompact.toString()}`);
    expect(REPORT_SCRIPT).toContain(DURATION_SCRIPT);
  });

  it("writes a hovered step's time as the chart's axis does", () => {
    const chart = {
      series: [{ name: "events accepted", color: "#000", values: new Array<number>(180).fill(1) }],
      viewWidth: 100,
      left: 0,
      width: 100,
      step: 30,
      unit: "/s",
    };
    // Step 90 of 180 starts at 2,700 s.
    expect(hoverHead(chart, 50)).toBe("45m – 45m30s");
    expect(hoverHead({ ...chart, step: 1, series: [{ ...chart.series[0], values: [1, 2] }] }, 75)).toBe("1s");
  });
});
