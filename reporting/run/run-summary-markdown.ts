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
      failedThresholds > 0 ? `${countNoun(failedThresholds, "threshold")} crossed` : "",
      waivedThresholds > 0 ? `${countNoun(waivedThresholds, "threshold")} WAIVED` : "",
    ]
      .filter(Boolean)
      .join(", ");
  }
  return part.outcome.note ? inlineCell(part.outcome.note) : "no report";
}

function problems(part: PartDetails): string[] {
  const id = part.outcome.id;
  const out: string[] = [];
  if (part.outcome.note && part.outcome.verdict !== "passed")
    out.push(`- ${ICON[part.outcome.verdict]} **${id}**: ${inlineText(part.outcome.note)}`);
  for (const check of part.checks?.checks ?? []) {
    if (check.status === "FAIL" || check.status === "ERROR") {
      out.push(
        `- ${check.status === "FAIL" ? "❌" : "⛔"} **${id}** ${codeSpan(check.id)}: ${inlineText(check.message)}`,
      );
    }
  }
  for (const threshold of part.load?.thresholds ?? []) {
    if (!threshold.ok) {
      out.push(
        `- ❌ **${id}** threshold ${codeSpan(threshold.metric)} ${codeSpan(threshold.expression)}${threshold.observed ? ` (${inlineText(threshold.observed)})` : ""}`,
      );
    }
  }
  if (part.load?.slidingExpiry?.level === "broken") {
    for (const reason of part.load.slidingExpiry.reasons)
      out.push(`- ❌ **${id}** sliding expiry: ${inlineText(reason)}`);
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
    ? `the ${EMBEDDED_SANDBOX_NOTE}`
    : run.target.baseUrl === undefined
      ? `the target of the issuer ${codeSpan(run.target.issuer ?? "")} (its metadata could not be read)`
      : `${codeSpan(run.target.baseUrl)} (${describeTokenEndpoint({ ...run.target, tokenUrl: run.target.tokenUrl ?? "" }, codeSpan)})`;
  const config = run.target.config;
  const from =
    config === undefined
      ? ""
      : `, settings from environment ${codeSpan(config.environment)} of ${codeSpan(config.file)}`;
  const lines = [
    `## ${HEADLINE[run.verdict]}${run.aborted === undefined ? "" : `: ${inlineText(run.aborted)}`}${run.couldNotTest === undefined ? "" : `: could not test the target: ${inlineText(run.couldNotTest)}`} — ${passed} of ${countNoun(run.parts.length, "part")} passed${run.target.embedded ? ` (${EMBEDDED_SANDBOX_NOTE})` : ""}`,
    "",
    ...(run.verdictLine === undefined ? [] : [`**${inlineText(run.verdictLine)}**`, ""]),
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
  const found = parts.flatMap(problems);
  if (found.length > 0) lines.push("", "### Problems", "", ...found);
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
