import { staleWaiverClause, staleWaiverWarning } from "../accepted/describe-outcomes.ts";
import { countNoun } from "../index.ts";
import { LEAD_ORDER } from "./failure-leads.ts";
import type { PartDetails } from "./part-details.ts";
import { gateWorthNaming } from "./part-gate.ts";
import type { PartOutcome, RunVerdict } from "./run-outcome.ts";
import { RUN_VERDICT_TITLE } from "./run-outcome.ts";

/**
 * The run's verdict line in its pieces, failures first: each part that did not pass with what failed in it, the
 * stale waivers, then how many parts passed and what gated those worth naming.
 */
export interface VerdictClauses {
  readonly title: string;
  /** `contract: 1 FAIL (lifetime.sliding), 37 PASS`, …, `not run: load-sustained`, `STALE WAIVER: …`. */
  readonly leading: readonly string[];
  /** `1 of 4 parts passed`. */
  readonly count: string;
  /** `load-sustained: thresholds held; baseline UNCHANGED (…)`: passed parts whose gate is worth naming. */
  readonly trailing: readonly string[];
  /** The loud warning of the run's stale waivers, for the console's end and the reports' top. */
  readonly staleWarning: string | undefined;
}

/** A part that did not pass, in one clause: `contract: 1 FAIL (lifetime.sliding), 37 PASS`. */
function notPassed(part: PartOutcome): string {
  if (part.verdict === "aborted")
    return `${part.id}: ABORTED${part.note === undefined ? "" : ` (${part.note})`}`;
  return `${part.id}: ${part.gate ?? part.note ?? RUN_VERDICT_TITLE[part.verdict === "failed" ? "failed" : "undecided"]}`;
}

/** The clauses of a run's verdict line, from its parts with their gates set. */
export function verdictClauses(verdict: RunVerdict, parts: readonly PartDetails[]): VerdictClauses {
  const outcomes = parts.map((part) => part.outcome);
  const leading = LEAD_ORDER.filter((v) => v !== "skipped").flatMap((v) =>
    outcomes.filter((part) => part.verdict === v).map(notPassed),
  );
  const skipped = outcomes.filter((part) => part.verdict === "skipped").map((part) => part.id);
  if (skipped.length > 0) leading.push(`not run: ${skipped.join(", ")}`);
  const accepted = parts.flatMap((part) => [
    ...(part.checks?.accepted ?? []),
    ...(part.load?.accepted ?? []),
  ]);
  const stale = staleWaiverClause(accepted);
  if (stale !== undefined) leading.push(stale);
  const file =
    parts.map((part) => part.checks?.acceptedFile ?? part.load?.acceptedFile).find((f) => f !== undefined) ??
    "the ledger";
  const passed = outcomes.filter((part) => part.verdict === "passed").length;
  return {
    title: RUN_VERDICT_TITLE[verdict],
    leading,
    count: `${passed} of ${countNoun(outcomes.length, "part")} passed`,
    trailing: parts
      .filter(
        (part) =>
          part.outcome.verdict === "passed" && part.outcome.gate !== undefined && gateWorthNaming(part),
      )
      .map((part) => `${part.outcome.id}: ${part.outcome.gate}`),
    staleWarning: staleWaiverWarning(accepted, file),
  };
}

/** The verdict line run.json keeps and summary.md leads with. */
export function verdictLineOf(clauses: VerdictClauses): string {
  return `${clauses.title} — ${[...clauses.leading, clauses.count, ...clauses.trailing].join(" · ")}`;
}
