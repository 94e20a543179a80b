import type { CheckStatus } from "../checks/check.ts";
import { AREA_TITLES, CHECK_AREAS } from "../checks/check.ts";
import type { CheckResult } from "../checks/check-result.ts";
import { formatDuration } from "./format-duration.ts";
import type { ContractRun } from "./run-summary.ts";
import { describeCounts, INSECURE_WARNING, verdictOf } from "./run-summary.ts";

const ICON: Record<CheckStatus, string> = { PASS: "✅", WARN: "⚠️", FAIL: "❌", ERROR: "⛔", SKIP: "⏭️" };
const HEADLINE = {
  passed: "✅ Contract kept",
  failed: "❌ Contract broken",
  undecided: "⛔ Could not decide",
} as const;

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replace(/\s+/g, " ");
}

function details(check: CheckResult): string {
  const evidence = check.evidence
    .map((item) => {
      const outcome = item.response ? `→ ${item.response.status}` : `→ ${item.error}`;
      return `${item.label} ${outcome}\n\n\`\`\`sh\n${item.curl}\n\`\`\``;
    })
    .join("\n\n");
  return `<details><summary>${ICON[check.status]} <code>${check.id}</code> — ${cell(check.message)}</summary>\n\n${evidence}\n\n</details>`;
}

/** summary.md: fit for a CI job summary: the verdict first, a table per area, evidence for what did not pass. */
export function renderSummaryMarkdown(run: ContractRun): string {
  const verdict = verdictOf(run.checks);
  const lines = [
    `## ${HEADLINE[verdict]} — ${describeCounts(run.checks)}`,
    "",
    `${run.suite} against \`${run.target.baseUrl}\` (token endpoint \`${run.target.tokenUrl}\`, client authentication ${run.target.clientAuth}${run.target.proxy ? `, via proxy \`${run.target.proxy}\`` : ""}${run.target.embedded ? ", embedded sandbox" : ""}), ${formatDuration(run.durationMs)}.`,
  ];
  if (run.target.insecure) lines.push("", `> [!WARNING]\n> ${INSECURE_WARNING}`);
  for (const area of CHECK_AREAS) {
    const checks = run.checks.filter((check) => check.area === area);
    if (checks.length === 0) continue;
    lines.push(
      "",
      `### ${AREA_TITLES[area]}`,
      "",
      "| | Check | Level | Rule | Result |",
      "|---|---|---|---|---|",
    );
    for (const check of checks) {
      lines.push(
        `| ${ICON[check.status]} | \`${check.id}\` | ${check.level} | ${cell(check.rule)} | ${cell(check.message)} |`,
      );
    }
  }
  const notPassed = run.checks.filter((check) => check.status !== "PASS");
  if (notPassed.length > 0) lines.push("", "### Evidence", "", ...notPassed.map(details));
  return `${lines.join("\n")}\n`;
}
