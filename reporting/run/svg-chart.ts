import { formatDurationCompact } from "../index.ts";
import { formatNumber, niceTicks, timeTicks } from "./chart-scale.ts";
import { escapeHtml } from "./html-escape.ts";

export interface ChartSeries {
  readonly name: string;
  readonly values: ReadonlyArray<number | null>;
  readonly color: string;
  /** Lines for rates and latencies; bars (stacked within a chart) for counts of events such as refreshes. */
  readonly kind: "line" | "bar";
  readonly dashed?: boolean;
  /** Drawn thicker and listed first: the series the chart is about. */
  readonly emphasis?: boolean;
}

export interface ChartSpec {
  readonly id: string;
  readonly title: string;
  /** Unit shown on the axis and in the tooltip, e.g. "/s" or "ms". */
  readonly unit: string;
  readonly stepSeconds: number;
  readonly series: readonly ChartSeries[];
  /** Shown under the title: what to look for. */
  readonly caption?: string;
  /** Spans the whole row: drawn twice as wide, so its text keeps the same size on screen. */
  readonly wide?: boolean;
  /** Counts of whole things: axis ticks are whole numbers. */
  readonly integer?: boolean;
  /** Horizontal bands behind the series, e.g. a baseline's p50–p95 range on a latency chart. */
  readonly bands?: readonly ChartBand[];
}

export interface ChartBand {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly color: string;
}

/** Sized so one unit of the viewBox is about one CSS pixel in a half-width column of the report. */
const NARROW_WIDTH = 560;
const WIDE_WIDTH = 1120;
const HEIGHT = 220;
const MARGIN = { top: 24, right: 14, bottom: 28, left: 44 } as const;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

const fixed = (value: number) => Math.round(value * 10) / 10;

function stackedBarTops(series: readonly ChartSeries[], length: number): number[] {
  const tops = new Array<number>(length).fill(0);
  for (const bar of series.filter((s) => s.kind === "bar")) {
    for (let i = 0; i < length; i += 1) tops[i] = (tops[i] ?? 0) + (bar.values[i] ?? 0);
  }
  return tops;
}

/** A line path that breaks at missing values instead of drawing through them. */
function linePath(
  values: ReadonlyArray<number | null>,
  x: (i: number) => number,
  y: (v: number) => number,
): string {
  const parts: string[] = [];
  let pen = false;
  values.forEach((value, i) => {
    if (value === null || !Number.isFinite(value)) {
      pen = false;
      return;
    }
    parts.push(`${pen ? "L" : "M"}${fixed(x(i))} ${fixed(y(value))}`);
    pen = true;
  });
  return parts.join("");
}

/**
 * Renders a time chart as inline SVG (no script needed to draw it): axes with nice ticks, stacked bars and lines,
 * and a legend with each series' total or peak. The data is repeated in a `data-chart` attribute for the hover
 * read-out; every text is escaped.
 */
export function renderChart(spec: ChartSpec): string {
  const width = spec.wide ? WIDE_WIDTH : NARROW_WIDTH;
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const length = Math.max(0, ...spec.series.map((s) => s.values.length));
  const totalSeconds = length * spec.stepSeconds;
  const barTops = stackedBarTops(spec.series, length);
  const lineMax = Math.max(
    0,
    ...spec.series
      .filter((s) => s.kind === "line")
      .flatMap((s) => s.values.filter((v): v is number => v !== null)),
    ...(spec.bands ?? []).map((b) => b.to),
  );
  const yTicks = niceTicks(Math.max(lineMax, ...barTops, 0), 4, spec.integer === true);
  const yMax = yTicks.at(-1) ?? 1;
  const x = (i: number) => MARGIN.left + (length <= 1 ? plotWidth / 2 : ((i + 0.5) / length) * plotWidth);
  const y = (v: number) => MARGIN.top + PLOT_H - (Math.min(v, yMax) / yMax) * PLOT_H;

  const grid = yTicks
    .map(
      (tick) =>
        `<line class="grid" x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${fixed(y(tick))}" y2="${fixed(y(tick))}"/>` +
        `<text class="tick" x="${MARGIN.left - 6}" y="${fixed(y(tick) + 4)}" text-anchor="end">${escapeHtml(formatNumber(tick))}</text>`,
    )
    .join("");
  const xAxis = timeTicks(totalSeconds)
    .map((t) => {
      const px = MARGIN.left + (totalSeconds === 0 ? 0 : (t / totalSeconds) * plotWidth);
      return (
        `<line class="axis" x1="${fixed(px)}" x2="${fixed(px)}" y1="${MARGIN.top + PLOT_H}" y2="${MARGIN.top + PLOT_H + 4}"/>` +
        `<text class="tick" x="${fixed(px)}" y="${HEIGHT - 10}" text-anchor="middle">${escapeHtml(formatDurationCompact(t * 1000))}</text>`
      );
    })
    .join("");

  const barWidth = length === 0 ? 0 : Math.max(1, (plotWidth / length) * 0.72);
  const base = new Array<number>(length).fill(0);
  const bars = spec.series
    .filter((s) => s.kind === "bar")
    .map((s) => {
      const rects: string[] = [];
      s.values.forEach((value, i) => {
        if (value === null || value <= 0) return;
        const bottom = base[i] ?? 0;
        base[i] = bottom + value;
        const top = y(bottom + value);
        rects.push(
          `<rect x="${fixed(x(i) - barWidth / 2)}" y="${fixed(top)}" width="${fixed(barWidth)}" height="${fixed(Math.max(1, y(bottom) - top))}"/>`,
        );
      });
      return `<g class="series bar" data-series="${escapeHtml(s.name)}" data-points="${rects.length}" fill="${escapeHtml(s.color)}">${rects.join("")}</g>`;
    })
    .join("");
  const bands = (spec.bands ?? [])
    .map((b) => {
      const top = y(Math.max(b.from, b.to));
      const height = Math.max(1, y(Math.min(b.from, b.to)) - top);
      return `<rect class="band" data-band="${escapeHtml(b.name)}" x="${MARGIN.left}" y="${fixed(top)}" width="${fixed(plotWidth)}" height="${fixed(height)}" fill="${escapeHtml(b.color)}" fill-opacity="0.18"><title>${escapeHtml(b.name)}</title></rect>`;
    })
    .join("");
  const lines = spec.series
    .filter((s) => s.kind === "line")
    .map((s) => {
      const points = s.values.filter((v) => v !== null).length;
      const d = linePath(s.values, x, y);
      // A point without a neighbour draws no segment (idle-gap's lone bursts): mark it with a dot.
      const dots = s.values
        .map((v, i) =>
          v === null || (s.values[i - 1] ?? null) !== null || (s.values[i + 1] ?? null) !== null
            ? ""
            : `<circle cx="${fixed(x(i))}" cy="${fixed(y(v))}" r="3" fill="${escapeHtml(s.color)}"/>`,
        )
        .join("");
      return `<g class="series line" data-series="${escapeHtml(s.name)}" data-points="${points}"><path d="${d}" fill="none" stroke="${escapeHtml(s.color)}" stroke-width="${s.emphasis ? 2.4 : 1.6}"${s.dashed ? ' stroke-dasharray="5 4"' : ""} stroke-linejoin="round" stroke-linecap="round"/>${dots}</g>`;
    })
    .join("");

  const data = {
    step: spec.stepSeconds,
    unit: spec.unit,
    left: MARGIN.left,
    width: plotWidth,
    viewWidth: width,
    series: spec.series.map((s) => ({ name: s.name, color: s.color, values: s.values })),
  };
  const empty = length === 0 || spec.series.every((s) => s.values.every((v) => v === null || v === 0));
  const legend = spec.series
    .map((s) => {
      const numbers = s.values.filter((v): v is number => v !== null);
      const summary =
        s.kind === "bar"
          ? `total ${formatNumber(numbers.reduce((a, b) => a + b, 0))}`
          : numbers.length === 0
            ? "no data"
            : `peak ${formatNumber(Math.max(...numbers))}${spec.unit === "/s" ? "/s" : ` ${spec.unit}`}`;
      return `<li><svg class="swatch" viewBox="0 0 14 14" aria-hidden="true">${
        s.kind === "bar"
          ? `<rect x="1" y="1" width="12" height="12" rx="2" fill="${escapeHtml(s.color)}"/>`
          : `<line x1="1" x2="13" y1="7" y2="7" stroke="${escapeHtml(s.color)}" stroke-width="3"${s.dashed ? ' stroke-dasharray="3 2"' : ""}/>`
      }</svg>${escapeHtml(s.name)} <span class="muted">${escapeHtml(summary)}</span></li>`;
    })
    .concat(
      (spec.bands ?? []).map(
        (b) =>
          `<li><svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><rect x="1" y="1" width="12" height="12" rx="2" fill="${escapeHtml(b.color)}" fill-opacity="0.35"/></svg>${escapeHtml(b.name)} <span class="muted">${escapeHtml(`${formatNumber(b.from)}–${formatNumber(b.to)} ${spec.unit}`)}</span></li>`,
      ),
    )
    .join("");
  return [
    `<figure class="chart${spec.wide ? " wide" : ""}" id="${escapeHtml(spec.id)}">`,
    `<figcaption><strong>${escapeHtml(spec.title)}</strong>${spec.caption ? ` <span class="muted">${escapeHtml(spec.caption)}</span>` : ""}</figcaption>`,
    `<div class="plot">`,
    `<svg class="chart-svg" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${escapeHtml(spec.title)}" data-chart="${escapeHtml(JSON.stringify(data))}">`,
    `<text class="unit" x="${MARGIN.left - 6}" y="${MARGIN.top - 12}" text-anchor="end">${escapeHtml(spec.unit)}</text>`,
    grid,
    bands,
    bars,
    lines,
    `<line class="axis" x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${MARGIN.top + PLOT_H}" y2="${MARGIN.top + PLOT_H}"/>`,
    xAxis,
    empty
      ? `<text class="empty" x="${width / 2}" y="${MARGIN.top + PLOT_H / 2}" text-anchor="middle">none during the run</text>`
      : "",
    `<line class="guide" x1="0" x2="0" y1="${MARGIN.top}" y2="${MARGIN.top + PLOT_H}" visibility="hidden"/>`,
    "</svg>",
    `<div class="tip" hidden></div>`,
    "</div>",
    `<ul class="legend">${legend}</ul>`,
    "</figure>",
  ].join("");
}
