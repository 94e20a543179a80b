import { describeCounts, INSECURE_WARNING } from "../../reporting/contract/index.ts";
import { describeTokenEndpoint } from "../../transport/index.ts";
import {
  codeSpan,
  countNoun,
  detailsBlock,
  EMBEDDED_SANDBOX_NOTE,
  formatDuration,
  htmlText,
  inlineCell,
  inlineText,
  overridesMarkdown,
  tableHead,
  tableRow,
  warningCallout,
} from "../index.ts";
import { formatNumber } from "./chart-scale.ts";
import type { LeadItem, PartLead } from "./failure-leads.ts";
import type { PartDetails } from "./part-details.ts";
import type { PartVerdict, RunOutcome } from "./run-outcome.ts";

const ICON: Readonly<Record<PartVerdict, string>> = {
  passed: "✅",
  failed: "❌",
  undecided: "⛔",
  aborted: "⏹️",
  skipped: "⏭️",
};
const HEADLINE = {
  passed: "✅ Passed",
  failed: "❌ Failed",
  undecided: "⛔ Could not decide",
  aborted: "⏹️ Aborted",
} as const;

/** A part's own summary sits under the run's headline: its headings move two levels down. */
function demoteHeadings(markdown: string): string {
  return markdown.replace(/^(#{1,4}) /gm, "$1## ");
}

function result(part: PartDetails): string {
  if (part.checks)
    return `${countNoun(part.checks.checks.length, "check")}: ${describeCounts(part.checks.checks)}`;
  if (part.capacity) {
    const { held, broken, steps } = part.capacity;
    return `${held === undefined ? "no rate held" : `capacity ${formatNumber(held)} events/s`}${broken === undefined ? "" : `, ${formatNumber(broken)}/s broke`}, ${countNoun(steps.length, "step")}`;
  }
  if (part.load) {
    const f = part.load.facts;
    const { thresholds, waived } = part.load;
    const isWaived = (t: (typeof thresholds)[number]) =>
      waived.some((w) => w.metric === t.metric && w.expression === t.expression);
    const failedThresholds = thresholds.filter((t) => !t.ok && !isWaived(t)).length;
    const waivedThresholds = thresholds.filter((t) => !t.ok && isWaived(t)).length;
    return [
      `${formatNumber(f.eventsAccepted)} events accepted`,
      `p95 ${formatDuration(new Map(f.eventLatency).get("p(95)") ?? Number.NaN)}`,
      `${f.unexpectedExpiries + f.idleOutlived} sliding-expiry violations`,
      // The part's gate, beside this in the same cell, names the thresholds crossed and waived.
      failedThresholds > 0 && part.outcome.gate === undefined
        ? `${countNoun(failedThresholds, "threshold")} crossed`
        : "",
      waivedThresholds > 0 && part.outcome.gate === undefined
        ? `${countNoun(waivedThresholds, "threshold")} WAIVED`
        : "",
    ]
      .filter(Boolean)
      .join(", ");
  }
  return part.outcome.note ? inlineCell(part.outcome.note) : "no report";
}

/** One item of a lead as a Markdown list item: the target's words inert, ids and thresholds in code spans. */
function problemLine(item: LeadItem, id: string, icon: string): string {
  switch (item.kind) {
    case "note":
      return `- ${icon} ${id}: ${inlineText(item.note)}`;
    case "check":
      return `- ${item.status === "FAIL" ? "❌" : "⛔"} ${id} ${codeSpan(item.id)}: ${inlineText(item.message)}`;
    case "threshold":
      return `- ❌ ${id} threshold ${codeSpan(item.metric)} ${codeSpan(item.expression)}${item.observed ? ` (${inlineText(item.observed)})` : ""}`;
    case "sliding-expiry":
      return `- ❌ ${id} sliding expiry: ${inlineText(item.reason)}`;
    case "baseline":
      return `- ❌ ${id} baseline ${codeSpan(item.figure)} REGRESSED`;
    case "reason":
      return `- ❌ ${id}: ${inlineText(item.reason)}`;
  }
}

/** A part that did not pass as Markdown list items, and where its evidence is. */
function problems(lead: PartLead): string[] {
  const id = `**${lead.part.id}**`;
  const icon = ICON[lead.part.verdict];
  const lines = lead.items.map((item) => problemLine(item, id, icon));
  if (lines.length === 0) lines.push(`- ${icon} ${id}: ${lead.part.verdict}`);
  return lead.evidence === undefined ? lines : [...lines, `- 📄 ${id} evidence: ${codeSpan(lead.evidence)}`];
}

/** The headline's words for the parts that did not pass: `contract, load-sustained failed; rotation not run`. */
function notPassedNames(run: RunOutcome): string[] {
  const named = (verdict: PartVerdict, words: string) => {
    const ids = run.parts.filter((part) => part.verdict === verdict).map((part) => part.id);
    return ids.length === 0 ? [] : [`${ids.join(", ")} ${words}`];
  };
  return [
    ...named("failed", "failed"),
    ...named("undecided", "could not decide"),
    ...named("aborted", "aborted"),
    ...named("skipped", "not run"),
  ];
}

/**
 * summary.md of a run, for `$GITHUB_STEP_SUMMARY`: the verdict naming what failed, a stale waiver's warning, every
 * problem in one list, then one row per part and each part's own summary folded away below.
 */
export function renderRunSummaryMarkdown(
  run: RunOutcome,
  parts: readonly PartDetails[],
  partSummaries: ReadonlyMap<string, string>,
  reportPath: string,
  leads: readonly PartLead[] = [],
  staleWarning?: string,
): string {
  const passed = run.parts.filter((part) => part.verdict === "passed").length;
  const target = run.target.embedded
    ? `the ${EMBEDDED_SANDBOX_NOTE}`
    : run.target.baseUrl === undefined
      ? `the target of the issuer ${codeSpan(run.target.issuer ?? "")} (its metadata could not be read)`
      : `${codeSpan(run.target.baseUrl)} (${describeTokenEndpoint({ ...run.target, tokenUrl: run.target.tokenUrl ?? "" }, codeSpan)})`;
  const config = run.target.config;
  const from =
    config === undefined
      ? ""
      : `, settings from environment ${codeSpan(config.environment)} of ${codeSpan(config.file)}`;
  const counted = [...notPassedNames(run), `${passed} of ${countNoun(run.parts.length, "part")} passed`];
  const found = leads.flatMap(problems);
  const lines = [
    `## ${HEADLINE[run.verdict]}${run.aborted === undefined ? "" : `: ${inlineText(run.aborted)}`}${run.couldNotTest === undefined ? "" : `: could not test the target: ${inlineText(run.couldNotTest)}`} — ${counted.join("; ")}${run.target.embedded ? ` (${EMBEDDED_SANDBOX_NOTE})` : ""}`,
    "",
    ...(run.verdictLine === undefined ? [] : [`**${inlineText(run.verdictLine)}**`, ""]),
    ...(staleWarning === undefined ? [] : [warningCallout(staleWarning), ""]),
    ...(found.length === 0 ? [] : ["### Problems", "", ...found, ""]),
    `Run ${codeSpan(run.runId)} against ${target}${from}, ${formatDuration(run.durationMs)}. Visual report: ${codeSpan(reportPath)}.`,
    "",
    ...(overridesMarkdown(run.overrides) === "" ? [] : [overridesMarkdown(run.overrides), ""]),
    ...(run.target.insecure ? [warningCallout(INSECURE_WARNING), ""] : []),
    ...tableHead(["", "Part", "Result", "Took"]),
    ...parts.map((part) =>
      tableRow([
        ICON[part.outcome.verdict],
        inlineCell(part.outcome.title),
        part.outcome.gate === undefined || part.load === undefined
          ? result(part)
          : `${result(part)}; ${inlineCell(part.outcome.gate)}`,
        formatDuration(part.outcome.durationMs),
      ]),
    ),
  ];
  for (const part of parts) {
    const summary = partSummaries.get(part.outcome.id);
    if (summary === undefined) continue;
    lines.push(
      "",
      detailsBlock(
        `${ICON[part.outcome.verdict]} ${htmlText(part.outcome.title)}: full summary`,
        demoteHeadings(summary.trim()),
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}
