import { formatDuration } from "../index.ts";
import type { CapacityChartInput, CapacityPoint } from "./capacity-chart.ts";
import { renderCapacityCharts } from "./capacity-chart.ts";
import { formatNumber } from "./chart-scale.ts";
import { escapeHtml } from "./html-escape.ts";
import { renderPage } from "./html-page.ts";

/** A capacity step as summary.json states it, checked field by field. */
export interface CapacityStepDigest extends CapacityPoint {
  readonly index: number;
  readonly phase: string;
  readonly judgedSeconds: number;
  readonly events: number;
  readonly acceptedPerSecond: number;
  readonly dropped: number;
  /** What broke it, or why the generator limited it, in words. */
  readonly why: string;
}

/** What a capacity run's summary.json says, as the HTML reports show it. */
export interface CapacityDigest {
  readonly verdictLine: string | undefined;
  readonly outcome: string | undefined;
  readonly held: number | undefined;
  readonly broken: number | undefined;
  readonly limitedAt: number | undefined;
  readonly objectives: readonly { readonly metric: string; readonly expression: string }[];
  readonly steps: readonly CapacityStepDigest[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function stepDigest(value: unknown): CapacityStepDigest | undefined {
  if (!isObject(value)) return undefined;
  const rate = num(value.rate);
  const index = num(value.index);
  if (rate === undefined || index === undefined || rate <= 0) return undefined;
  const latency = isObject(value.latency) ? value.latency : {};
  const brokenBy = Array.isArray(value.brokenBy) ? value.brokenBy.filter(isObject) : [];
  const generator = isObject(value.generator) ? value.generator : {};
  const signals = Array.isArray(generator.signals) ? generator.signals.filter(isObject) : [];
  const outcome = str(value.outcome) ?? "no-verdict";
  const why =
    outcome === "broken"
      ? brokenBy.length > 0
        ? brokenBy
            .map((t) => `${str(t.metric) ?? ""} ${str(t.expression) ?? ""} ${str(t.observed) ?? ""}`.trim())
            .join(", ")
        : (str(value.reason) ?? "")
      : outcome === "generator"
        ? signals.map((s) => str(s.detail) ?? "").join(" ")
        : (str(value.reason) ?? "");
  return {
    index,
    phase: str(value.phase) ?? "",
    rate,
    outcome,
    judgedSeconds: num(value.judgedSeconds) ?? 0,
    events: num(value.events) ?? 0,
    acceptedPerSecond: num(value.acceptedPerSecond) ?? 0,
    p50: num(latency.p50),
    p95: num(latency.p95),
    p99: num(latency.p99),
    failureRate: num(value.failureRate) ?? 0,
    dropped: num(value.dropped) ?? 0,
    why,
  };
}

/** Reads a capacity run's summary.json defensively; undefined when it holds no capacity search. */
export function digestCapacity(data: unknown): CapacityDigest | undefined {
  if (!isObject(data) || !isObject(data.harness) || !isObject(data.harness.capacity)) return undefined;
  const { harness } = data;
  const capacity = harness.capacity as Json;
  const result = isObject(harness.result) ? harness.result : {};
  const broken = isObject(capacity.broken) ? num(capacity.broken.rate) : undefined;
  return {
    verdictLine: str(harness.verdictLine),
    outcome: str(result.outcome),
    held: num(capacity.held),
    broken,
    limitedAt: num(capacity.limitedAt),
    objectives: Array.isArray(capacity.objectives)
      ? capacity.objectives.flatMap((o: unknown) => {
          const metric = isObject(o) ? str(o.metric) : undefined;
          const expression = isObject(o) ? str(o.expression) : undefined;
          return metric === undefined || expression === undefined ? [] : [{ metric, expression }];
        })
      : [],
    steps: Array.isArray(capacity.steps)
      ? capacity.steps.flatMap((s: unknown) => {
          const step = stepDigest(s);
          return step === undefined ? [] : [step];
        })
      : [],
  };
}

/** The charts' objective lines: `p95 < 500 ms` from `http_req_duration{endpoint:events} p(95)<500`, the failure rate. */
export function chartInput(digest: CapacityDigest): CapacityChartInput {
  const latencyLimits: { label: string; ms: number }[] = [];
  let failureLimit: number | undefined;
  for (const { metric, expression } of digest.objectives) {
    const match = /^\s*(p\(([\d.]+)\)|avg|med|max)\s*<=?\s*([\d.]+)\s*$/.exec(expression);
    if (metric.startsWith("http_req_duration{endpoint:events") && match !== null) {
      const stat = match[2] === undefined ? match[1] : `p${match[2]}`;
      latencyLimits.push({ label: `${stat} objective < ${match[3]} ms`, ms: Number(match[3]) });
    }
    const rate = /^\s*rate\s*<=?\s*([\d.]+)\s*$/.exec(expression);
    if (metric === "events_failed" && rate !== null) failureLimit = Number(rate[1]);
  }
  return { points: digest.steps, held: digest.held, latencyLimits, failureLimit };
}

const cell = (value: number | undefined) => (value === undefined ? "–" : escapeHtml(formatNumber(value)));

/** The step table in HTML. */
function stepTable(steps: readonly CapacityStepDigest[]): string {
  const rows = steps
    .map(
      (s) =>
        `<tr data-outcome="${escapeHtml(s.outcome)}"><td>${s.index}</td><td>${escapeHtml(s.phase)}</td><td>${cell(s.rate)}</td>` +
        `<td>${escapeHtml(formatDuration(s.judgedSeconds * 1000))}</td><td>${cell(s.events)}</td><td>${cell(s.acceptedPerSecond)}</td>` +
        `<td>${cell(s.p50)}</td><td>${cell(s.p95)}</td><td>${cell(s.p99)}</td><td>${cell(s.failureRate * 100)} %</td><td>${cell(s.dropped)}</td>` +
        `<td><span class="pill ${s.outcome === "held" ? "held" : s.outcome === "broken" ? "broken" : "undecided"}">${escapeHtml(s.outcome)}</span> ${escapeHtml(s.why)}</td></tr>`,
    )
    .join("");
  return (
    `<table class="data"><thead><tr><th>#</th><th>phase</th><th>rate /s</th><th>judged</th><th>events</th><th>accepted /s</th>` +
    `<th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>failed</th><th>dropped</th><th>verdict</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

/** A capacity search: its figure, the charts of rate against latency and failures, and every step. */
export function renderCapacityBody(id: string, digest: CapacityDigest): string {
  const facts = [
    digest.held === undefined ? "no rate held" : `highest rate held ${formatNumber(digest.held)} events/s`,
    digest.broken === undefined ? "" : `first broken at ${formatNumber(digest.broken)} events/s`,
    digest.limitedAt === undefined
      ? ""
      : `the generator, not the API, limited the step at ${formatNumber(digest.limitedAt)} events/s`,
  ].filter(Boolean);
  return [
    `<div class="callout ${digest.held === undefined ? "broken" : "held"}"><strong>Capacity:</strong> ${escapeHtml(facts.join(" · "))}` +
      `${digest.verdictLine === undefined ? "" : `<br>${escapeHtml(digest.verdictLine)}`}</div>`,
    renderCapacityCharts(id, chartInput(digest)),
    "<h3>Steps</h3>",
    stepTable(digest.steps),
  ].join("");
}

/** capacity.html: the capacity run's own page, as self-contained as the run's report. */
export function renderCapacityPage(digest: CapacityDigest, target: string): string {
  const verdict =
    digest.outcome === "passed"
      ? "passed"
      : digest.outcome === "failed"
        ? "failed"
        : digest.outcome === "aborted"
          ? "aborted"
          : "undecided";
  const body = [
    `<header class="banner ${verdict}"><div class="wrap">`,
    `<div class="kicker">Event API harness · load capacity</div>`,
    `<h1 id="verdict" data-verdict="${verdict}">${escapeHtml(digest.held === undefined ? "No rate held" : `Capacity ${formatNumber(digest.held)} events/s`)}</h1>`,
    `<p>${escapeHtml(digest.verdictLine ?? "")}</p>`,
    `<div class="meta"><span>Target: ${escapeHtml(target)}</span></div>`,
    "</div></header>",
    `<main class="wrap"><section class="block">`,
    renderCapacityBody("capacity", digest),
    `<div class="links"><a href="summary.md">summary.md</a><a href="summary.json">summary.json</a><a href="junit.xml">junit.xml</a></div>`,
    "</section></main>",
  ].join("\n");
  return renderPage(`Capacity · Event API harness`, body);
}
