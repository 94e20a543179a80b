import type { CheckResult, CheckStatus, Evidence } from "../../contracts/index.ts";
import { AREA_TITLES, CHECK_AREAS } from "../../contracts/index.ts";
import { formatDuration } from "../index.ts";
import { escapeHtml } from "./html-escape.ts";
import { renderExploration } from "./html-exploration.ts";

const STATUS_ORDER: readonly CheckStatus[] = ["FAIL", "ERROR", "WAIVED", "WARN", "SKIP", "PASS"];

function statusClass(status: number | undefined): string {
  return status === undefined ? "status-x" : `status-${String(status).charAt(0)}`;
}

function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

/** A JSON body indented for reading; anything else (or a truncated body) exactly as recorded. */
function readableBody(body: string): string {
  const trimmed = body.trim();
  if (trimmed.length > 65_536 || !/^[[{]/.test(trimmed)) return body;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return body;
  }
}

function pane(title: string, text: string, className = ""): string {
  return `<div class="pane${className ? ` ${className}` : ""}"><h4>${escapeHtml(title)}</h4><pre>${escapeHtml(text)}</pre></div>`;
}

/** One request and its response (or why there was none), with the curl command that repeats it. */
function renderExchange(item: Evidence): string {
  const request = [
    `${item.request.method} ${item.request.url}`,
    headerLines(item.request.headers),
    ...(item.request.body === undefined ? [] : ["", readableBody(item.request.body)]),
  ].join("\n");
  const outcome = item.response
    ? `<span class="${statusClass(item.response.status)}"><strong>${escapeHtml(item.response.status)}</strong></span> <span class="muted">${escapeHtml(formatDuration(item.response.durationMs))}</span>`
    : `<span class="status-x"><strong>${escapeHtml(item.error ?? "no response")}</strong></span>`;
  const response = item.response
    ? pane(
        "Response",
        [
          `HTTP ${item.response.status}`,
          headerLines(item.response.headers),
          ...(item.response.body === undefined ? [] : ["", readableBody(item.response.body)]),
        ].join("\n"),
      )
    : pane("Response", item.error ?? "no response");
  return [
    `<div class="exchange"><div class="head"><span>${escapeHtml(item.label)}</span><span>${outcome}</span></div>`,
    pane("curl", item.curl, "curl"),
    `<div class="grid">${pane("Request", request)}${response}</div>`,
    "</div>",
  ].join("");
}

/** What the ledger of accepted deviations said of the check: waived, expired, stale or unobserved, and why. */
function acceptanceTerm(check: CheckResult): string {
  const accepted = check.acceptance;
  if (accepted === undefined) return "";
  const until = accepted.expires === undefined ? "" : ` until ${accepted.expires}`;
  const ticket = accepted.ticket === undefined ? "" : ` (${accepted.ticket})`;
  return `<dt>Accepted</dt><dd>${escapeHtml(`${accepted.state}: accepted${until}${ticket}: ${accepted.reason}`)}</dd>`;
}

function renderCheck(check: CheckResult): string {
  // Failures and errors are what a reader opens the report for: show their evidence at once.
  const open = check.status === "FAIL" || check.status === "ERROR" ? " open" : "";
  const evidence =
    check.evidence.length === 0
      ? `<p class="muted">No HTTP exchange recorded.</p>`
      : check.evidence.map(renderExchange).join("");
  return [
    `<details class="check ${escapeHtml(check.status)}" id="check-${escapeHtml(check.id)}"${open}>`,
    `<summary><span class="pill ${escapeHtml(check.status)}">${escapeHtml(check.status)}</span>`,
    `<span class="id">${escapeHtml(check.id)}</span>`,
    `<span class="text"><span class="title">${escapeHtml(check.title)}</span><br><span class="message">${escapeHtml(check.message)}</span></span>`,
    `<span class="pill level">${escapeHtml(check.level)}</span></summary>`,
    `<div class="check-body"><dl><dt>Rule</dt><dd>${escapeHtml(check.rule)}</dd><dt>Level</dt><dd>${escapeHtml(check.level)}</dd>`,
    `<dt>Took</dt><dd>${escapeHtml(formatDuration(check.durationMs))}</dd>${acceptanceTerm(check)}</dl>`,
    renderExploration(check),
    evidence,
    "</div></details>",
  ].join("");
}

export function renderStatusCounts(checks: readonly CheckResult[]): string {
  return STATUS_ORDER.map(
    (status) => [status, checks.filter((check) => check.status === status).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `<span class="pill ${status}">${n} ${status}</span>`)
    .join("");
}

/** The checks of a contract or rotation run, grouped by area, each expandable to its evidence. */
export function renderChecks(checks: readonly CheckResult[]): string {
  const known = new Set<string>(CHECK_AREAS);
  const areas: Array<[string, string]> = CHECK_AREAS.map((area) => [area, AREA_TITLES[area]]);
  for (const check of checks) {
    if (!known.has(check.area)) {
      known.add(check.area);
      areas.push([check.area, check.area]);
    }
  }
  const groups = areas
    .map(([area, title]) => {
      const inArea = checks.filter((check) => check.area === area);
      if (inArea.length === 0) return "";
      return `<div class="area"><h3>${escapeHtml(title)} <span class="counts">${renderStatusCounts(inArea)}</span></h3>${inArea.map(renderCheck).join("")}</div>`;
    })
    .join("");
  const toolbar =
    `<div class="toolbar"><button type="button" data-action="problems" aria-pressed="false">Only problems</button>` +
    `<button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button></div>`;
  return `<div data-checks>${toolbar}${groups}</div>`;
}
