import type { CheckResult } from "../../contracts/index.ts";
import { entriesInScope, inLedgerOrder } from "./binding.ts";
import type { EntryOutcome } from "./entry-outcome.ts";
import { acceptanceOf, judgeEntry, unobserved } from "./entry-outcome.ts";
import { isContractId } from "./gate-ids.ts";
import type { Ledger } from "./ledger.ts";
import { describeAcceptance, hasExpired } from "./ledger.ts";

export interface AcceptedChecks {
  readonly checks: readonly CheckResult[];
  /** One outcome per contract entry of the ledger, in its order; load gate and baseline entries belong to load runs. */
  readonly outcomes: readonly EntryOutcome[];
}

/**
 * Applies the ledger to a contract run's results: a failing (FAIL or WARN) accepted check becomes WAIVED while its
 * entry is in force and stays as it was once expired; the message says which. ERROR and SKIP prove nothing, so their
 * entries are unobserved. An entry bound to another environment or target is not applied, and says so.
 */
export function applyToChecks(checks: readonly CheckResult[], ledger: Ledger): AcceptedChecks {
  const { applying, notApplied } = entriesInScope(
    ledger.entries.filter((entry) => isContractId(entry.id)),
    ledger,
  );
  const outcomes: EntryOutcome[] = [...notApplied];
  const byId = new Map(applying.map((e) => [e.id, e]));
  const judged = checks.map((check) => {
    const entry = byId.get(check.id);
    if (entry === undefined) return notAppliedTo(check, notApplied);
    if (check.status === "ERROR" || check.status === "SKIP") {
      outcomes.push(
        unobserved(entry, `${check.id} was ${check.status === "SKIP" ? "skipped" : "undecided"}`),
      );
      return check;
    }
    const failing = check.status === "FAIL" || check.status === "WARN";
    const outcome = judgeEntry(entry, failing, hasExpired(entry, ledger.today), check.level);
    outcomes.push(outcome);
    const acceptance = acceptanceOf(entry, outcome.state);
    if (outcome.state === "waived") {
      return {
        ...check,
        status: "WAIVED" as const,
        message: `${check.message} [WAIVED: ${describeAcceptance(entry)}: ${entry.reason}]`,
        acceptance,
      };
    }
    if (outcome.state === "expired") {
      return { ...check, message: `${check.message} [accepted until ${entry.expires}, expired]`, acceptance };
    }
    return { ...check, acceptance };
  });
  for (const entry of byId.values()) {
    if (!checks.some((check) => check.id === entry.id))
      outcomes.push(unobserved(entry, "the check did not run"));
  }
  return { checks: judged, outcomes: inLedgerOrder(outcomes, ledger) };
}

/** A failing check whose only entries are bound elsewhere: it fails, and says why its entry did not waive it. */
function notAppliedTo(check: CheckResult, notApplied: readonly EntryOutcome[]): CheckResult {
  const elsewhere = notApplied.find((outcome) => outcome.entry.id === check.id);
  if (elsewhere === undefined || (check.status !== "FAIL" && check.status !== "WARN")) return check;
  return {
    ...check,
    message: `${check.message} [not waived: the ledger's entry is ${elsewhere.detail}]`,
    acceptance: acceptanceOf(elsewhere.entry, "not-applied"),
  };
}
