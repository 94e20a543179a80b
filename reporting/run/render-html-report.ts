import { INSECURE_WARNING } from "../../reporting/contract/index.ts";
import { describeTokenEndpoint } from "../../transport/index.ts";
import { countNoun, EMBEDDED_SANDBOX_NOTE, formatDuration } from "../index.ts";
import { formatNumber } from "./chart-scale.ts";
import type { LeadItem, PartLead } from "./failure-leads.ts";
import { renderChecks, renderStatusCounts } from "./html-checks.ts";
import { escapeHtml, safeHref } from "./html-escape.ts";
import { renderLoadBody } from "./html-load.ts";
import { renderPage } from "./html-page.ts";
import type { PartDetails } from "./part-details.ts";
import type { PartVerdict, RunOutcome, RunVerdict } from "./run-outcome.ts";

const HEADLINE: Readonly<Record<RunVerdict, { icon: string; title: string; text: string }>> = {
  passed: { icon: "✓", title: "Passed", text: "Every part ran and nothing failed." },
  failed: {
    icon: "✕",
    title: "Failed",
    text: "At least one check or threshold failed: the target broke its contract.",
  },
  undecided: {
    icon: "?",
    title: "Could not decide",
    text: "Nothing failed, but at least one part could not reach a verdict.",
  },
  aborted: {
    icon: "■",
    title: "Aborted",
    text: "The run was interrupted before it finished: it proves neither a pass nor a failure.",
  },
};

function verdictPill(verdict: PartVerdict): string {
  return `<span class="pill ${escapeHtml(verdict)}">${escapeHtml(verdict)}</span>`;
}

/** The one-line fact a part's card shows under its name. */
function partFact(part: PartDetails): string {
  if (part.checks) {
    const n = part.checks.checks.length;
    const problems = part.checks.checks.filter((check) => check.status !== "PASS").length;
    return `${countNoun(n, "check")}${problems === 0 ? ", all PASS" : `, ${problems} not PASS`}`;
  }
  if (part.capacity) {
    const { held, broken } = part.capacity;
    return held === undefined
      ? "no rate held"
      : `capacity ${formatNumber(held)} events/s${broken === undefined ? " or more" : ` · ${formatNumber(broken)}/s broke`}`;
  }
  if (part.load) {
    const f = part.load.facts;
    const violations = f.unexpectedExpiries + f.idleOutlived;
    const p95 = new Map(f.eventLatency).get("p(95)") ?? Number.NaN;
    return `${formatNumber(f.eventsAccepted)} events · p95 ${formatDuration(p95)} · ${violations} violation${violations === 1 ? "" : "s"}`;
  }
  return part.outcome.note ?? "no report files";
}

function banner(run: RunOutcome, staleWarning: string | undefined): string {
  const headline = HEADLINE[run.verdict];
  const passed = run.parts.filter((part) => part.verdict === "passed").length;
  const target = run.target.embedded
    ? `${EMBEDDED_SANDBOX_NOTE} (started by each part on loopback)`
    : run.target.baseUrl === undefined
      ? `the target of the issuer ${run.target.issuer ?? ""} (its metadata could not be read)`
      : `${run.target.baseUrl} (${describeTokenEndpoint({ ...run.target, tokenUrl: run.target.tokenUrl ?? "" })})`;
  return [
    `<header class="banner ${run.verdict}"><div class="wrap">`,
    `<div class="kicker">Event API harness · run ${escapeHtml(run.runId)}</div>`,
    `<h1 id="verdict" data-verdict="${run.verdict}"><span class="icon" aria-hidden="true">${headline.icon}</span>${escapeHtml(headline.title)}</h1>`,
    `<p>${escapeHtml(headline.text)}${run.aborted === undefined ? "" : ` (${escapeHtml(run.aborted)})`}${run.couldNotTest === undefined ? "" : ` (could not test the target: ${escapeHtml(run.couldNotTest)})`} ${passed} of ${countNoun(run.parts.length, "part")} passed.</p>`,
    run.verdictLine === undefined ? "" : `<p class="verdict-line">${escapeHtml(run.verdictLine)}</p>`,
    staleWarning === undefined ? "" : `<p class="warning" role="alert">⚠ ${escapeHtml(staleWarning)}</p>`,
    `<div class="meta"><span>Target: ${escapeHtml(target)}</span>`,
    run.target.config === undefined
      ? ""
      : `<span>Settings: environment ${escapeHtml(run.target.config.environment)} of ${escapeHtml(run.target.config.file)}</span>`,
    run.overrides === undefined || run.overrides.length === 0
      ? ""
      : `<span>Overrides: ${escapeHtml(run.overrides.join(", "))}</span>`,
    `<span>Started ${escapeHtml(run.startedAt)}</span>`,
    `<span>Took ${escapeHtml(formatDuration(run.durationMs))}</span><span>${escapeHtml(toolText(run.tool))}</span></div>`,
    run.target.embedded
      ? `<p class="demo" role="note">Demo: ${escapeHtml(EMBEDDED_SANDBOX_NOTE)}. Point the target options at your API for a real verdict.</p>`
      : "",
    run.target.insecure ? `<p class="warning" role="alert">⚠ ${escapeHtml(INSECURE_WARNING)}</p>` : "",
    "</div></header>",
  ].join("");
}

function partCards(parts: readonly PartDetails[]): string {
  const cards = parts
    .map(
      (part) =>
        `<a class="part-card ${escapeHtml(part.outcome.verdict)}" href="#part-${escapeHtml(part.outcome.id)}">` +
        `<div class="name"><span>${escapeHtml(part.outcome.title)}</span>${verdictPill(part.outcome.verdict)}</div>` +
        `<div class="fact">${escapeHtml(partFact(part))} · ${escapeHtml(formatDuration(part.outcome.durationMs))}</div></a>`,
    )
    .join("");
  return `<nav class="parts" aria-label="Parts">${cards}</nav>`;
}

function partSection(part: PartDetails): string {
  const { outcome } = part;
  const body: string[] = [];
  if (outcome.note) body.push(`<div class="note">${escapeHtml(outcome.note)}</div>`);
  if (outcome.kind === "load") body.push(renderLoadBody(part));
  else if (part.checks) body.push(renderChecks(part.checks.checks));
  else if (outcome.verdict !== "skipped") body.push(`<p class="muted">No results.json was written.</p>`);
  const files = part.files
    .map(
      (file) =>
        `<a href="${escapeHtml(safeHref(file))}">${escapeHtml(file.slice(outcome.id.length + 1))}</a>`,
    )
    .join("");
  const counts = part.checks ? `<span class="counts">${renderStatusCounts(part.checks.checks)}</span>` : "";
  return [
    `<section class="block" id="part-${escapeHtml(outcome.id)}" data-part="${escapeHtml(outcome.kind)}" data-verdict="${escapeHtml(outcome.verdict)}">`,
    `<header><h2>${escapeHtml(outcome.title)} ${verdictPill(outcome.verdict)}</h2>`,
    `<span class="muted">${counts} ${escapeHtml(formatDuration(outcome.durationMs))}${outcome.exitCode === null ? "" : ` · exit ${outcome.exitCode}`}</span></header>`,
    body.join(""),
    outcome.kind === "load" || files === "" ? "" : `<div class="links">${files}</div>`,
    `<h3>Reproduce</h3><div class="cmd">${escapeHtml(outcome.command)}</div>`,
    "</section>",
  ].join("");
}

/** Where an item's evidence is on the page: a check's own fold, or its part's section. */
function anchorOf(lead: PartLead, item: LeadItem): string {
  return item.kind === "check" ? `check-${item.id}` : `part-${lead.part.id}`;
}

/** An item's words on the page, the target's text escaped. */
function itemHtml(item: LeadItem): string {
  switch (item.kind) {
    case "check":
      return `<code>${escapeHtml(item.id)}</code> ${escapeHtml(item.status)} (${escapeHtml(item.level)}): ${escapeHtml(item.message)}`;
    case "threshold":
      return `threshold <code>${escapeHtml(`${item.metric} ${item.expression}`)}</code>${item.observed ? ` (${escapeHtml(item.observed)})` : ""}`;
    case "sliding-expiry":
      return `sliding expiry BROKEN: ${escapeHtml(item.reason)}`;
    case "baseline":
      return `baseline <code>${escapeHtml(item.figure)}</code> REGRESSED`;
    case "reason":
      return escapeHtml(item.reason);
    case "note":
      return escapeHtml(item.note);
  }
}

/** The page opens on what failed: every part that did not pass, each item linked to its evidence below. */
function problemsSection(leads: readonly PartLead[]): string {
  if (leads.length === 0) return "";
  const items = leads.flatMap((lead) => {
    const name = `<b>${escapeHtml(lead.part.id)}</b>`;
    const rows =
      lead.items.length === 0
        ? [
            `<li><a href="#part-${escapeHtml(lead.part.id)}">${name}</a>: ${escapeHtml(lead.part.verdict)}</li>`,
          ]
        : lead.items.map(
            (item) => `<li><a href="#${escapeHtml(anchorOf(lead, item))}">${name}</a> ${itemHtml(item)}</li>`,
          );
    return rows;
  });
  return `<section class="problems" id="problems" aria-label="Problems"><h2>Problems</h2><ul>${items.join("")}</ul></section>`;
}

/** index.html of a run: one self-contained page, the verdict and the problems first, every part below. */
export function renderHtmlReport(
  run: RunOutcome,
  parts: readonly PartDetails[],
  leads: readonly PartLead[] = [],
  staleWarning?: string,
): string {
  const footer =
    `<footer class="wrap">Machine-readable: <a href="run.json">run.json</a> · CI summary: <a href="summary.md">summary.md</a>. ` +
    "Secrets and access tokens are replaced by placeholders in this page and every file it links to.</footer>";
  const body = [
    banner(run, staleWarning),
    `<main class="wrap">`,
    problemsSection(leads),
    partCards(parts),
    ...parts.map(partSection),
    "</main>",
    footer,
  ].join("\n");
  return renderPage(`${HEADLINE[run.verdict].title} · Event API harness run ${run.runId}`, body);
}

/** "event-api-harness 0.1.0, commit 1a2b3c4d5e6f": which harness made the report, and from which commit. */
function toolText(tool: RunOutcome["tool"]): string {
  if (tool.commit === undefined) return `${tool.name} ${tool.version}`;
  const commit =
    tool.commit === null
      ? "commit unknown"
      : `commit ${tool.commit.slice(0, 12)}${tool.modified === true ? " with uncommitted changes" : ""}`;
  return `${tool.name} ${tool.version}, ${commit}`;
}
