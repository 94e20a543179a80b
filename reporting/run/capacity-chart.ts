import { formatNumber, niceTicks } from "./chart-scale.ts";
import { escapeHtml } from "./html-escape.ts";

/** One step of a capacity search as the chart draws it: its rate, verdict and judged figures. */
export interface CapacityPoint {
  readonly rate: number;
  /** held, broken, generator (k6 limited it), or no verdict. */
  readonly outcome: string;
  readonly p50: number | undefined;
  readonly p95: number | undefined;
  readonly p99: number | undefined;
  /** Share of events not accepted, 0–1. */
  readonly failureRate: number;
}

export interface CapacityChartInput {
  readonly points: readonly CapacityPoint[];
  /** The highest rate held, drawn as a vertical line. */
  readonly held: number | undefined;
  /** The latency objectives' limits, drawn as horizontal lines (e.g. `p95 < 500 ms`). */
  readonly latencyLimits: readonly { readonly label: string; readonly ms: number }[];
  /** The failure-rate objective's limit, a share (e.g. 0.01). */
  readonly failureLimit: number | undefined;
}

const WIDTH = 1120;
const HEIGHT = 260;
const M = { top: 26, right: 18, bottom: 36, left: 58 } as const;
const PLOT_W = WIDTH - M.left - M.right;
const PLOT_H = HEIGHT - M.top - M.bottom;
const COLORS = {
  p50: "#0ea5e9",
  p95: "#f59e0b",
  p99: "#ef4444",
  failed: "#dc2626",
  limit: "#64748b",
} as const;

const fixed = (value: number) => Math.round(value * 10) / 10;

/** Ticks 1, 2, 5 × 10^n between `low` and `high`. */
function logTicks(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let power = Math.floor(Math.log10(low)); 10 ** power <= high; power += 1) {
    for (const m of [1, 2, 5]) {
      const tick = m * 10 ** power;
      if (tick >= low && tick <= high) ticks.push(tick);
    }
  }
  return ticks;
}

/** The rate axis: logarithmic, since the search steps up by a factor, with room on both sides of the steps. */
function rateAxis(points: readonly CapacityPoint[]) {
  const rates = points.map((p) => p.rate);
  const low = Math.max(0.5, Math.min(...rates) / 1.25);
  const high = Math.max(low * 2, Math.max(...rates) * 1.25);
  const x = (rate: number) =>
    M.left + ((Math.log(rate) - Math.log(low)) / (Math.log(high) - Math.log(low))) * PLOT_W;
  return { x, ticks: logTicks(low, high) };
}

function frame(x: (rate: number) => number, xTicks: readonly number[], yTicks: string): string {
  const axis = xTicks
    .map(
      (t) =>
        `<line class="axis" x1="${fixed(x(t))}" x2="${fixed(x(t))}" y1="${M.top + PLOT_H}" y2="${M.top + PLOT_H + 4}"/>` +
        `<text class="tick" x="${fixed(x(t))}" y="${HEIGHT - 18}" text-anchor="middle">${escapeHtml(formatNumber(t))}</text>`,
    )
    .join("");
  return (
    yTicks +
    `<line class="axis" x1="${M.left}" x2="${WIDTH - M.right}" y1="${M.top + PLOT_H}" y2="${M.top + PLOT_H}"/>` +
    axis +
    `<text class="unit" x="${WIDTH - M.right}" y="${HEIGHT - 3}" text-anchor="end">events/s offered (log scale)</text>`
  );
}

/** A point's marker: filled for a step held, hollow for one broken, a cross where the generator limited it. */
function marker(outcome: string, cx: number, cy: number, color: string): string {
  if (outcome === "generator" || outcome === "no-verdict" || outcome === "aborted") {
    return `<path class="mark ${escapeHtml(outcome)}" d="M${fixed(cx - 4)} ${fixed(cy - 4)}L${fixed(cx + 4)} ${fixed(cy + 4)}M${fixed(cx - 4)} ${fixed(cy + 4)}L${fixed(cx + 4)} ${fixed(cy - 4)}" stroke="#94a3b8" stroke-width="2"/>`;
  }
  const fill = outcome === "held" ? color : "#fff";
  return `<circle class="mark ${escapeHtml(outcome)}" cx="${fixed(cx)}" cy="${fixed(cy)}" r="4" fill="${fill}" stroke="${color}" stroke-width="2"/>`;
}

function heldLine(x: (rate: number) => number, held: number | undefined): string {
  if (held === undefined) return "";
  const px = fixed(x(held));
  return (
    `<line class="held" x1="${px}" x2="${px}" y1="${M.top}" y2="${M.top + PLOT_H}" stroke="#166534" stroke-width="1.5" stroke-dasharray="2 3"/>` +
    `<text class="tick" x="${px}" y="${M.top - 8}" text-anchor="middle" fill="#166534">${escapeHtml(`held ${formatNumber(held)}/s`)}</text>`
  );
}

function legend(
  items: readonly { readonly name: string; readonly color: string; readonly dashed?: boolean }[],
) {
  return `<ul class="legend">${items
    .map(
      (item) =>
        `<li><svg class="swatch" viewBox="0 0 14 14" aria-hidden="true"><line x1="1" x2="13" y1="7" y2="7" stroke="${escapeHtml(item.color)}" stroke-width="3"${item.dashed ? ' stroke-dasharray="3 2"' : ""}/></svg>${escapeHtml(item.name)}</li>`,
    )
    .join(
      "",
    )}<li class="muted">● held · ○ broken · × limited by the generator (counts neither way)</li></ul>`;
}

function figure(id: string, title: string, caption: string, svg: string, legendHtml: string): string {
  return [
    `<figure class="chart wide" id="${escapeHtml(id)}">`,
    `<figcaption><strong>${escapeHtml(title)}</strong> <span class="muted">${escapeHtml(caption)}</span></figcaption>`,
    `<div class="plot"><svg class="chart-svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(title)}">${svg}</svg></div>`,
    legendHtml,
    "</figure>",
  ].join("");
}

/** Event latency against the rate offered, on log scales: the knee is where p95 and p99 leave the floor. */
function latencyChart(id: string, input: CapacityChartInput): string {
  const points = [...input.points].sort((a, b) => a.rate - b.rate);
  const { x, ticks } = rateAxis(points);
  const values = points
    .flatMap((p) => [p.p50, p.p95, p.p99])
    .filter((v): v is number => v !== undefined && v > 0);
  const limits = input.latencyLimits.map((l) => l.ms);
  const low = Math.max(0.1, Math.min(...values, ...limits) / 1.5);
  const high = Math.max(low * 10, Math.max(...values, ...limits) * 1.5);
  const y = (ms: number) =>
    M.top +
    PLOT_H -
    ((Math.log(Math.max(ms, low)) - Math.log(low)) / (Math.log(high) - Math.log(low))) * PLOT_H;
  const yTicks = logTicks(low, high)
    .map(
      (t) =>
        `<line class="grid" x1="${M.left}" x2="${WIDTH - M.right}" y1="${fixed(y(t))}" y2="${fixed(y(t))}"/>` +
        `<text class="tick" x="${M.left - 6}" y="${fixed(y(t) + 4)}" text-anchor="end">${escapeHtml(formatNumber(t))}</text>`,
    )
    .join("");
  const series = (["p50", "p95", "p99"] as const)
    .map((name) => {
      const drawn = points.filter((p) => p[name] !== undefined && (p[name] as number) > 0);
      const path = drawn
        .map((p, i) => `${i === 0 ? "M" : "L"}${fixed(x(p.rate))} ${fixed(y(p[name] as number))}`)
        .join("");
      return (
        `<g class="series line" data-series="${name}" data-points="${drawn.length}">` +
        `<path d="${path}" fill="none" stroke="${COLORS[name]}" stroke-width="${name === "p95" ? 2.4 : 1.6}" stroke-linejoin="round"/>` +
        drawn.map((p) => marker(p.outcome, x(p.rate), y(p[name] as number), COLORS[name])).join("") +
        "</g>"
      );
    })
    .join("");
  const objectiveLines = input.latencyLimits
    .map(
      (l) =>
        `<line class="limit" x1="${M.left}" x2="${WIDTH - M.right}" y1="${fixed(y(l.ms))}" y2="${fixed(y(l.ms))}" stroke="${COLORS.limit}" stroke-dasharray="6 4"/>` +
        `<text class="tick" x="${WIDTH - M.right - 4}" y="${fixed(y(l.ms) - 5)}" text-anchor="end">${escapeHtml(l.label)}</text>`,
    )
    .join("");
  const svg =
    `<text class="unit" x="${M.left - 6}" y="${M.top - 12}" text-anchor="end">ms</text>` +
    frame(x, ticks, yTicks) +
    objectiveLines +
    heldLine(x, input.held) +
    series;
  return figure(
    `${id}-latency`,
    "Latency against the rate offered",
    "each step's judged stretch; the knee is where p95 and p99 leave the floor",
    svg,
    legend([
      { name: "p50", color: COLORS.p50 },
      { name: "p95", color: COLORS.p95 },
      { name: "p99", color: COLORS.p99 },
      ...(input.latencyLimits.length === 0 ? [] : [{ name: "objective", color: COLORS.limit, dashed: true }]),
    ]),
  );
}

/** The share of events not accepted against the rate offered. */
function failureChart(id: string, input: CapacityChartInput): string {
  const points = [...input.points].sort((a, b) => a.rate - b.rate);
  const { x, ticks } = rateAxis(points);
  const top = Math.max(...points.map((p) => p.failureRate * 100), (input.failureLimit ?? 0) * 100, 1);
  const yScale = niceTicks(top, 4);
  const yMax = yScale.at(-1) ?? 1;
  const y = (percent: number) => M.top + PLOT_H - (Math.min(percent, yMax) / yMax) * PLOT_H;
  const yTicks = yScale
    .map(
      (t) =>
        `<line class="grid" x1="${M.left}" x2="${WIDTH - M.right}" y1="${fixed(y(t))}" y2="${fixed(y(t))}"/>` +
        `<text class="tick" x="${M.left - 6}" y="${fixed(y(t) + 4)}" text-anchor="end">${escapeHtml(formatNumber(t))}</text>`,
    )
    .join("");
  const path = points
    .map((p, i) => `${i === 0 ? "M" : "L"}${fixed(x(p.rate))} ${fixed(y(p.failureRate * 100))}`)
    .join("");
  const limit =
    input.failureLimit === undefined
      ? ""
      : `<line class="limit" x1="${M.left}" x2="${WIDTH - M.right}" y1="${fixed(y(input.failureLimit * 100))}" y2="${fixed(y(input.failureLimit * 100))}" stroke="${COLORS.limit}" stroke-dasharray="6 4"/>` +
        `<text class="tick" x="${WIDTH - M.right - 4}" y="${fixed(y(input.failureLimit * 100) - 5)}" text-anchor="end">${escapeHtml(`objective < ${formatNumber(input.failureLimit * 100)} %`)}</text>`;
  const svg =
    `<text class="unit" x="${M.left - 6}" y="${M.top - 12}" text-anchor="end">%</text>` +
    frame(x, ticks, yTicks) +
    limit +
    heldLine(x, input.held) +
    `<g class="series line" data-series="failed" data-points="${points.length}"><path d="${path}" fill="none" stroke="${COLORS.failed}" stroke-width="2" stroke-linejoin="round"/>` +
    points.map((p) => marker(p.outcome, x(p.rate), y(p.failureRate * 100), COLORS.failed)).join("") +
    "</g>";
  return figure(
    `${id}-failures`,
    "Failures against the rate offered",
    "share of the judged stretch's events not accepted",
    svg,
    legend([{ name: "failed", color: COLORS.failed }]),
  );
}

/**
 * The capacity charts as inline SVG (no script needed): latency p50, p95 and p99, and failures, against the rate
 * each step offered, with the objectives' limits and the highest rate held. Every text is escaped.
 */
export function renderCapacityCharts(id: string, input: CapacityChartInput): string {
  if (input.points.length === 0) return `<p class="muted">No step finished: nothing to chart.</p>`;
  return `<div class="capacity-charts">${latencyChart(id, input)}${failureChart(id, input)}</div>`;
}
