import { formatDuration, INSECURE_WARNING } from "../../contracts/index.ts";
import { formatNumber } from "./chart-scale.ts";
import type { PartDetails } from "./part-details.ts";
import type { PartVerdict, RunOutcome } from "./run-outcome.ts";

const ICON: Readonly<Record<PartVerdict, string>> = {
  passed: "✅",
  failed: "❌",
  undecided: "⛔",
  skipped: "⏭️",
};
const HEADLINE = { passed: "✅ Passed", failed: "❌ Failed", undecided: "⛔ Could not decide" } as const;

/** Text for a table cell or list item: one line, no pipes, no HTML from a target's answers. */
function inline(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("|", "\\|")
    .trim();
}

/** A part's own summary sits under the run's headline: its headings move two levels down. */
function demoteHeadings(markdown: string): string {
  return markdown.replace(/^(#{1,4}) /gm, "$1## ");
}

function result(part: PartDetails): string {
  if (part.checks) {
    const counts = new Map<string, number>();
    for (const check of part.checks.checks) counts.set(check.status, (counts.get(check.status) ?? 0) + 1);
    const order = ["FAIL", "ERROR", "WARN", "SKIP", "PASS"];
    const listed = order
      .filter((status) => counts.has(status))
      .map((status) => `${counts.get(status)} ${status}`);
    return `${part.checks.checks.length} checks: ${listed.join(", ")}`;
  }
  if (part.load) {
    const f = part.load.figures;
    const failedThresholds = part.load.thresholds.filter((t) => !t.ok).length;
    return [
      `${formatNumber(f.eventsAccepted)} events accepted`,
      `p95 ${formatNumber(f.eventLatencyMs["p(95)"] ?? 0)} ms`,
      `${f.unexpectedExpiries + f.idleOutlived} sliding-expiry violations`,
      failedThresholds > 0 ? `${failedThresholds} threshold(s) failed` : "",
    ]
      .filter(Boolean)
      .join(", ");
  }
  return part.outcome.note ? inline(part.outcome.note) : "no report";
}

function problems(part: PartDetails): string[] {
  const id = part.outcome.id;
  const out: string[] = [];
  if (part.outcome.note && part.outcome.verdict !== "passed")
    out.push(`- ${ICON[part.outcome.verdict]} **${id}**: ${inline(part.outcome.note)}`);
  for (const check of part.checks?.checks ?? []) {
    if (check.status === "FAIL" || check.status === "ERROR") {
      out.push(
        `- ${check.status === "FAIL" ? "❌" : "⛔"} **${id}** \`${check.id}\`: ${inline(check.message)}`,
      );
    }
  }
  for (const threshold of part.load?.thresholds ?? []) {
    if (!threshold.ok) {
      out.push(
        `- ❌ **${id}** threshold \`${threshold.metric}\` \`${threshold.expression}\`${threshold.observed ? ` (${inline(threshold.observed)})` : ""}`,
      );
    }
  }
  if (part.load?.slidingExpiry?.level === "broken") {
    for (const reason of part.load.slidingExpiry.reasons)
      out.push(`- ❌ **${id}** sliding expiry: ${inline(reason)}`);
  }
  return out;
}

/**
 * summary.md of a run, for `$GITHUB_STEP_SUMMARY`: the verdict, one row per part, every problem in one list, and
 * each part's own summary folded away below.
 */
export function renderRunSummaryMarkdown(
  run: RunOutcome,
  parts: readonly PartDetails[],
  partSummaries: ReadonlyMap<string, string>,
  reportPath: string,
): string {
  const passed = run.parts.filter((part) => part.verdict === "passed").length;
  const target = run.target.embedded
    ? "the embedded sandbox"
    : `\`${run.target.baseUrl ?? ""}\` (token endpoint \`${run.target.tokenUrl ?? ""}\`)`;
  const lines = [
    `## ${HEADLINE[run.verdict]} — ${passed} of ${run.parts.length} parts passed`,
    "",
    `Run \`${run.runId}\` against ${target}, ${formatDuration(run.durationMs)}. Visual report: \`${reportPath}\`.`,
    "",
    ...(run.target.insecure ? [`> [!WARNING]\n> ${INSECURE_WARNING}`, ""] : []),
    "| | Part | Result | Took |",
    "|---|---|---|---|",
    ...parts.map(
      (part) =>
        `| ${ICON[part.outcome.verdict]} | ${inline(part.outcome.title)} | ${result(part)} | ${formatDuration(part.outcome.durationMs)} |`,
    ),
  ];
  const found = parts.flatMap(problems);
  if (found.length > 0) lines.push("", "### Problems", "", ...found);
  for (const part of parts) {
    const summary = partSummaries.get(part.outcome.id);
    if (summary === undefined) continue;
    lines.push(
      "",
      `<details><summary>${ICON[part.outcome.verdict]} ${inline(part.outcome.title)}: full summary</summary>`,
      "",
      demoteHeadings(summary.trim()),
      "",
      "</details>",
    );
  }
  return `${lines.join("\n")}\n`;
}
