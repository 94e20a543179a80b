import type { CheckResult, CheckStatus } from "../../contracts/index.ts";
import { AREA_TITLES, CHECK_AREAS } from "../../contracts/index.ts";
import { describeTokenEndpoint } from "../../transport/index.ts";
import { describeOutcomes, staleWaiverClause, staleWaiverWarning } from "../accepted/describe-outcomes.ts";
import {
  codeBlock,
  codeSpan,
  detailsBlock,
  EMBEDDED_SANDBOX_NOTE,
  formatDuration,
  htmlText,
  inlineCell,
  inlineText,
  overridesMarkdown,
  paragraphText,
  tableCell,
  tableHead,
  tableRow,
  warningCallout,
} from "../index.ts";
import { foundWhen } from "./found-when.ts";
import type { ContractRun } from "./run-summary.ts";
import { describeCounts, INSECURE_WARNING, ROTATION_SUITE, rerunOf, verdictOf } from "./run-summary.ts";

const ICON: Record<CheckStatus, string> = {
  PASS: "✅",
  WARN: "⚠️",
  FAIL: "❌",
  ERROR: "⛔",
  SKIP: "⏭️",
  WAIVED: "🧾",
};
const HEADLINE = {
  passed: "✅ Contract kept",
  failed: "❌ Contract broken",
  undecided: "⛔ Could not decide",
  aborted: "⏹️ Aborted",
} as const;
/** A rotation check judges the rotation the user described, not the API's contract. */
const ROTATION_HEADLINE = {
  ...HEADLINE,
  passed: "✅ Rotation verified",
  failed: "❌ Rotation not as expected",
} as const;

/** A property-based check's shrunk failure: what the input is, the input itself, and the options that replay it. */
function counterexampleBlock(check: CheckResult, rerun: string): string {
  const found = check.counterexample;
  if (found === undefined) return "";
  const type = found.contentType === null ? "no Content-Type" : `Content-Type ${codeSpan(found.contentType)}`;
  return [
    `Minimal input: ${inlineText(found.what)} (${type}; seed ${found.seed}, path ${codeSpan(found.path)}; ${foundWhen(found)})`,
    "",
    codeBlock(found.input, "json"),
    "",
    `Replay: ${codeSpan(`${rerun} ${found.replay}`)}`,
    "",
    "",
  ].join("\n");
}

function details(check: CheckResult, rerun: string): string {
  const evidence = check.evidence
    .map((item) => {
      // What a target sent (messages, errors) is escaped: a summary must not carry its HTML or end its code block.
      const outcome = item.response ? `→ ${item.response.status}` : `→ ${inlineText(item.error ?? "")}`;
      return `${item.label} ${outcome}\n\n${codeBlock(item.curl, "sh")}`;
    })
    .join("\n\n");
  // The message quotes the target, so it goes in the Markdown body: the summary line is raw HTML.
  return detailsBlock(
    `${ICON[check.status]} <code>${htmlText(check.id)}</code>`,
    [paragraphText(check.message), `${counterexampleBlock(check, rerun)}${evidence}`]
      .filter(Boolean)
      .join("\n\n"),
  );
}

/** summary.md: fit for a CI job summary: the verdict first, a table per area, evidence for what did not pass. */
export function renderSummaryMarkdown(run: ContractRun): string {
  const verdict = verdictOf(run);
  const { target } = run;
  const headline = run.suite === ROTATION_SUITE ? ROTATION_HEADLINE : HEADLINE;
  const accepted = run.accepted ?? [];
  const staleClause = staleWaiverClause(accepted);
  const stale = staleWaiverWarning(accepted, run.acceptedFile ?? "the ledger");
  const lines = [
    `## ${headline[verdict]}${run.aborted === undefined ? "" : `: ${inlineText(run.aborted)}`}${run.couldNotTest === undefined ? "" : `: could not test the target: ${inlineText(run.couldNotTest)}`} — ${inlineText(describeCounts(run.checks))}${staleClause === undefined ? "" : `; ${inlineText(staleClause)}`}${target.embedded ? ` (${EMBEDDED_SANDBOX_NOTE})` : ""}`,
    "",
    ...(stale === undefined ? [] : [warningCallout(stale), ""]),
    `${run.suite} against ${codeSpan(target.baseUrl)} (${describeTokenEndpoint(target, codeSpan)}, client authentication ${target.clientAuth}${target.proxy ? `, via proxy ${codeSpan(target.proxy)}` : ""}${target.embedded ? `, ${EMBEDDED_SANDBOX_NOTE}` : ""}), ${formatDuration(run.durationMs)}.`,
  ];
  // The failure leads: what failed or could not be decided, before any table of what passed.
  const failed = [
    ...run.checks.filter((check) => check.status === "FAIL"),
    ...run.checks.filter((check) => check.status === "ERROR"),
  ];
  if (failed.length > 0) {
    lines.push(
      "",
      "### Failed",
      "",
      ...failed.map(
        (check) =>
          `- ${ICON[check.status]} ${codeSpan(check.id)} (${check.level}): ${inlineText(check.message)}`,
      ),
    );
  }
  const overrides = overridesMarkdown(run.overrides);
  if (overrides !== "") lines.push("", overrides);
  if (target.insecure) lines.push("", warningCallout(INSECURE_WARNING));
  for (const area of CHECK_AREAS) {
    const checks = run.checks.filter((check) => check.area === area);
    if (checks.length === 0) continue;
    lines.push("", `### ${AREA_TITLES[area]}`, "", ...tableHead(["", "Check", "Level", "Rule", "Result"]));
    for (const check of checks) {
      lines.push(
        tableRow([
          ICON[check.status],
          codeSpan(check.id),
          check.level,
          tableCell(check.rule),
          inlineCell(check.message),
        ]),
      );
    }
  }
  if (run.accepted !== undefined && run.accepted.length > 0) {
    lines.push(
      "",
      "### Accepted deviations",
      "",
      `From ${codeSpan(run.acceptedFile ?? "the ledger")}:`,
      "",
      ...describeOutcomes(run.accepted).map((line) => `- ${inlineText(line)}`),
    );
  }
  const notPassed = run.checks.filter((check) => check.status !== "PASS");
  if (notPassed.length > 0)
    lines.push("", "### Evidence", "", ...notPassed.map((check) => details(check, rerunOf(run))));
  return `${lines.join("\n")}\n`;
}
