import { countNoun, formatDuration, formatDurationCompact } from "../index.ts";
import { generatorHeadline } from "../load/index.ts";
import { renderCapacityBody } from "./capacity-page.ts";
import { formatNumber } from "./chart-scale.ts";
import { escapeHtml, safeHref } from "./html-escape.ts";
import type { LoadSummary } from "./load-summary.ts";
import type { PartDetails } from "./part-details.ts";
import type { ChartBand, ChartSeries } from "./svg-chart.ts";
import { renderChart } from "./svg-chart.ts";
import type { TimeSeries } from "./time-series.ts";
import { countsByPrefix, ratePerSecond, sumSeries, total } from "./time-series.ts";

const COLORS = {
  accepted: "#2563eb",
  failed: "#dc2626",
  token: "#7c3aed",
  p50: "#0ea5e9",
  p95: "#f59e0b",
  p99: "#ef4444",
  max: "#94a3b8",
  tokenP95: "#a78bfa",
  expiry: "#94a3b8",
  violation: "#dc2626",
  tokenFailure: "#ea580c",
} as const;
const REASON_COLORS: Readonly<Record<string, string>> = {
  idle: "#14b8a6",
  lifetime: "#3b82f6",
  rejected: "#f97316",
  initial: "#a3a3a3",
  "per-iteration": "#8b5cf6",
};
const LINKS: ReadonlyArray<readonly [string, string]> = [
  ["dashboard.html", "k6 dashboard"],
  ["summary.md", "summary.md"],
  ["junit.xml", "junit.xml"],
  ["summary.json", "summary.json"],
  ["timeseries.json", "timeseries.json"],
];

function ms(value: number | undefined): string {
  return formatDuration(value ?? Number.NaN);
}

function throughputChart(id: string, series: TimeSeries): string {
  const step = series.stepSeconds;
  const of = (key: string) => ratePerSecond(series, series.counts[key] ?? new Array(series.length).fill(0));
  const lines: ChartSeries[] = [
    {
      name: "events accepted",
      values: of("events.accepted"),
      color: COLORS.accepted,
      kind: "line",
      emphasis: true,
    },
    { name: "events failed", values: of("events.failed"), color: COLORS.failed, kind: "line" },
    { name: "token requests", values: of("requests.token"), color: COLORS.token, kind: "line", dashed: true },
  ];
  return renderChart({
    id: `${id}-throughput`,
    title: "Throughput",
    caption: "events per second, and token endpoint calls",
    unit: "/s",
    stepSeconds: step,
    series: lines,
    wide: true,
  });
}

/** The baseline's events p50–p95 (medians over its units), drawn behind this run's lines. */
function baselineBand(comparison: PartDetails["comparison"]): ChartBand[] {
  const value = (id: string) => comparison?.figures.find((f) => f.id === id)?.baseline ?? undefined;
  const p50 = value("events.p50");
  const p95 = value("events.p95");
  if (p50 === undefined || p95 === undefined) return [];
  return [{ name: "baseline p50–p95", from: p50, to: p95, color: "#64748b" }];
}

function latencyChart(id: string, series: TimeSeries, comparison?: PartDetails["comparison"]): string {
  const events = series.latency.events;
  const token = series.latency.token;
  const lines: ChartSeries[] = [];
  if (events) {
    lines.push(
      { name: "p50", values: events.p50, color: COLORS.p50, kind: "line" },
      { name: "p95", values: events.p95, color: COLORS.p95, kind: "line", emphasis: true },
      { name: "p99", values: events.p99, color: COLORS.p99, kind: "line" },
      { name: "max", values: events.max, color: COLORS.max, kind: "line", dashed: true },
    );
  }
  if (token)
    lines.push({ name: "token p95", values: token.p95, color: COLORS.tokenP95, kind: "line", dashed: true });
  return renderChart({
    id: `${id}-latency`,
    title: "Event latency",
    caption: "POST /events duration per second",
    unit: "ms",
    stepSeconds: series.stepSeconds,
    series: lines,
    bands: baselineBand(comparison),
  });
}

function tokenChart(id: string, series: TimeSeries): string {
  const zero = new Array<number>(series.length).fill(0);
  const bars: ChartSeries[] = countsByPrefix(series, "token.refreshes").map(([reason, values]) => ({
    name: `refresh: ${reason}`,
    values,
    color: REASON_COLORS[reason] ?? "#64748b",
    kind: "bar",
  }));
  bars.push({
    name: "idle expiry confirmed",
    values: series.counts["token.idle-expiries"] ?? zero,
    color: COLORS.expiry,
    kind: "bar",
  });
  const violations = sumSeries(series.length, [
    series.counts["token.unexpected-expiries"] ?? zero,
    series.counts["token.idle-outlived"] ?? zero,
  ]);
  bars.push({ name: "sliding-expiry violations", values: violations, color: COLORS.violation, kind: "bar" });
  if (total(series, "token.request-failures") > 0) {
    bars.push({
      name: "token request failures",
      values: series.counts["token.request-failures"] ?? zero,
      color: COLORS.tokenFailure,
      kind: "bar",
    });
  }
  return renderChart({
    id: `${id}-tokens`,
    title: "Token refreshes and violations",
    caption: "red bars are the target breaking sliding expiry",
    unit: series.stepSeconds === 1 ? "/s" : `per ${series.stepSeconds} s`,
    stepSeconds: series.stepSeconds,
    series: bars,
    integer: true,
  });
}

function tile(label: string, value: string, sub: string, tone: "" | "good" | "bad" = ""): string {
  return `<div class="tile${tone ? ` ${tone}` : ""}"><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div><div class="sub">${escapeHtml(sub)}</div></div>`;
}

function tiles(summary: LoadSummary): string {
  const f = summary.facts;
  const violations = f.unexpectedExpiries + f.idleOutlived;
  const latency = new Map(f.eventLatency);
  const cells = [
    tile(
      "Events accepted",
      formatNumber(f.eventsAccepted),
      `${formatNumber(f.acceptedPerSecond)}/s over ${formatDuration(f.loadSeconds * 1000)}${f.warmUpSeconds > 0 ? ` after a ${formatDuration(f.warmUpSeconds * 1000)} token warm-up` : ""}`,
    ),
    tile(
      "Error rate",
      `${formatNumber(f.errorRate * 100)} %`,
      `${formatNumber(f.eventsRejected)} not accepted`,
      f.eventsRejected > 0 ? "bad" : "good",
    ),
    tile(
      "Latency p95",
      ms(latency.get("p(95)")),
      `median ${ms(latency.get("med"))}, max ${ms(latency.get("max"))}`,
    ),
    tile(
      "Token requests",
      formatNumber(f.tokenRequests),
      `${formatNumber(f.tokenRefreshes)} ${f.tokenRefreshes === 1 ? "refresh" : "refreshes"}`,
    ),
    tile(
      "Sliding-expiry violations",
      formatNumber(violations),
      `${countNoun(f.unexpectedExpiries, "early expiry", "early expiries")}, ${countNoun(f.idleOutlived, "idle token outlived", "idle tokens outlived")}`,
      violations > 0 ? "bad" : "good",
    ),
    tile("Idle expiries confirmed", formatNumber(f.idleExpiries), "401 after an idle gap, as the spec says"),
  ];
  if (f.droppedIterations > 0) {
    cells.push(
      tile("Dropped iterations", formatNumber(f.droppedIterations), "k6 could not keep the rate", "bad"),
    );
  }
  return `<div class="tiles">${cells.join("")}</div>`;
}

/** A failed threshold the ledger accepted reads WAIVED, in its own colour, never PASS. */
function thresholdPill(t: LoadSummary["thresholds"][number], summary: LoadSummary): string {
  if (t.ok) return "PASS";
  return summary.waived.some((w) => w.metric === t.metric && w.expression === t.expression)
    ? "WAIVED"
    : "FAIL";
}

function thresholdTable(summary: LoadSummary): string {
  if (summary.thresholds.length === 0) return "";
  const rows = summary.thresholds
    .map(
      (t) =>
        `<tr><td><span class="pill ${thresholdPill(t, summary)}">${thresholdPill(t, summary)}</span></td><td><code>${escapeHtml(t.metric)}</code></td><td><code>${escapeHtml(t.expression)}</code></td><td>${escapeHtml(t.observed ?? "–")}</td></tr>`,
    )
    .join("");
  return `<h3>Thresholds</h3><table class="data"><thead><tr><th></th><th>Metric</th><th>Threshold</th><th>Observed</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function describeContext(summary: LoadSummary | undefined): string {
  const c = summary?.context;
  if (!c) return "";
  const parts = [
    c.rate === undefined ? "" : `${formatNumber(c.rate)} events/s`,
    c.vus === undefined ? "" : countNoun(c.vus, "VU"),
    c.durationSeconds === undefined ? "" : formatDurationCompact(c.durationSeconds * 1000),
    c.clientModel === undefined ? "" : `client model ${c.clientModel}`,
    c.expiresInSeconds === undefined ? "" : `expires_in ${formatNumber(c.expiresInSeconds)} s`,
  ].filter(Boolean);
  return parts.join(" · ");
}

/** Links to the files a part wrote that a reader may want next (the k6 dashboard first). */
export function renderLinks(details: PartDetails, wanted: ReadonlyArray<readonly [string, string]>): string {
  const links = wanted
    .filter(([name]) => details.files.includes(`${details.outcome.id}/${name}`))
    .map(
      ([name, label]) =>
        `<a href="${escapeHtml(safeHref(`${details.outcome.id}/${name}`))}">${escapeHtml(label)}</a>`,
    );
  return links.length === 0 ? "" : `<div class="links">${links.join("")}</div>`;
}

/** One load scenario: verdicts, key figures, the three charts over time, thresholds and links. */
export function renderLoadBody(details: PartDetails): string {
  const { load, series, outcome } = details;
  const out: string[] = [];
  // A capacity search: its figure, rate against latency and failures, every step.
  if (details.capacity !== undefined) {
    out.push(renderCapacityBody(outcome.id, details.capacity));
    if (details.comparison) {
      const { baseline, status, line } = details.comparison;
      out.push(
        `<div class="callout ${status === "REGRESSED" ? "broken" : "held"}"><strong>Against the baseline ${escapeHtml(baseline)}:</strong> <span class="pill">${escapeHtml(status)}</span> ${escapeHtml(line ?? "")}</div>`,
      );
    }
    out.push(renderLinks(details, [["capacity.html", "capacity.html"], ...LINKS]));
    return out.join("");
  }
  const context = describeContext(load);
  if (context) out.push(`<p class="muted">${escapeHtml(context)}</p>`);
  if (load?.slidingExpiry) {
    const { level, reasons } = load.slidingExpiry;
    out.push(
      `<div class="callout ${escapeHtml(level)}"><strong>Sliding expiry under load:</strong> <span class="pill ${escapeHtml(level)}">${escapeHtml(level)}</span>` +
        `<ul>${reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join("")}</ul></div>`,
    );
  }
  if (load?.generator?.limited) {
    const headline = generatorHeadline(outcome.verdict === "failed");
    out.push(
      `<div class="callout broken"><strong>${escapeHtml(headline.title)}:</strong> ${escapeHtml(headline.figures)}.` +
        `<ul>${load.generator.signals.map((signal) => `<li>${escapeHtml(signal)}</li>`).join("")}</ul></div>`,
    );
  }
  if (details.comparison) {
    const { baseline, status, figures, line } = details.comparison;
    const regressed = figures.filter((f) => f.status === "REGRESSED").map((f) => f.id);
    const said = typeof line === "string" ? ` ${escapeHtml(line)}` : "";
    out.push(
      `<div class="callout ${status === "REGRESSED" ? "broken" : "held"}"><strong>Against the baseline ${escapeHtml(baseline)}:</strong> <span class="pill">${escapeHtml(status)}</span>${regressed.length > 0 ? ` REGRESSED: ${escapeHtml(regressed.join(", "))}` : ""}${said}</div>`,
    );
  }
  if (load) out.push(tiles(load));
  if (series && series.length > 0) {
    out.push(
      `<div class="charts">${throughputChart(outcome.id, series)}${latencyChart(outcome.id, series, details.comparison)}${tokenChart(outcome.id, series)}</div>`,
    );
  } else {
    out.push(`<p class="muted">No time series: k6 left no per-request metrics for this part.</p>`);
  }
  if (load) out.push(thresholdTable(load));
  if (!load && outcome.verdict !== "skipped")
    out.push(`<p class="muted">No summary.json: k6 did not finish its summary.</p>`);
  out.push(renderLinks(details, LINKS));
  return out.join("");
}
