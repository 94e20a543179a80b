import type { CheckResult } from "../../contracts/index.ts";
import { AREA_TITLES, CHECK_AREAS } from "../../contracts/index.ts";
import { describeOutcomes, staleWaiverClause, staleWaiverWarning } from "../accepted/describe-outcomes.ts";
import { EMBEDDED_SANDBOX_NOTE, formatDuration } from "../index.ts";
import type { ContractRun } from "./run-summary.ts";
import { describeCounts, INSECURE_WARNING, verdictOf } from "./run-summary.ts";

const VERDICT_LINE = {
  passed: "PASSED",
  failed: "FAILED",
  undecided: "COULD NOT DECIDE",
  aborted: "ABORTED",
} as const;

function line(check: CheckResult, width: number): string {
  return `  ${check.status.padEnd(6)}  ${check.id.padEnd(width)}  ${check.level.padEnd(6)}  ${check.message}`;
}

/**
 * The console summary, grouped by area; at its end a stale waiver's warning, `reports` (the line naming the report
 * files) and the verdict, naming what failed, last, where a CI log is read from.
 */
export function renderConsoleSummary(run: ContractRun, reports?: string): string {
  const width = Math.max(...run.checks.map((check) => check.id.length), 10);
  const lines: string[] = [];
  // A preflight stop ran no check: the diagnosis was said once already, the reports list the checks it skipped.
  for (const area of run.couldNotTest === undefined ? CHECK_AREAS : []) {
    const checks = run.checks.filter((check) => check.area === area);
    if (checks.length === 0) continue;
    lines.push(AREA_TITLES[area], ...checks.map((check) => line(check, width)), "");
  }
  if (run.accepted !== undefined && run.accepted.length > 0) {
    lines.push(`Accepted deviations (${run.acceptedFile ?? "ledger"})`);
    lines.push(...describeOutcomes(run.accepted).map((text) => `  ${text}`), "");
  }
  const verdict = verdictOf(run);
  if (run.target.insecure) lines.push(`WARNING: ${INSECURE_WARNING}`);
  const accepted = run.accepted ?? [];
  const stale = staleWaiverWarning(accepted, run.acceptedFile ?? "the ledger");
  if (stale !== undefined) lines.push(`WARNING: ${stale}`);
  if (reports !== undefined) lines.push(reports);
  const staleClause = staleWaiverClause(accepted);
  lines.push(
    `Verdict: ${VERDICT_LINE[verdict]}${run.aborted === undefined ? "" : ` (${run.aborted})`}${run.couldNotTest === undefined ? "" : " (could not test the target: see above)"} — ${describeCounts(run.checks)} (${formatDuration(run.durationMs)}, ${run.suite}${run.target.embedded ? `, ${EMBEDDED_SANDBOX_NOTE}` : ""})${staleClause === undefined ? "" : ` · ${staleClause}`}`,
  );
  return `${lines.join("\n")}\n`;
}
