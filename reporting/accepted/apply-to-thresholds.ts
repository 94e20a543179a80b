import type { ThresholdResult } from "../load/summary-data.ts";
import { entriesInScope, inLedgerOrder } from "./binding.ts";
import type { EntryOutcome } from "./entry-outcome.ts";
import { judgeEntry, unobserved } from "./entry-outcome.ts";
import { gateMatches, isExpiryMetric, isLoadGateId } from "./gate-ids.ts";
import type { Ledger } from "./ledger.ts";
import { hasExpired } from "./ledger.ts";

export interface AcceptedThresholds {
  /** Failed thresholds no entry in force accepts: these fail the run. */
  readonly failed: readonly ThresholdResult[];
  /** Failed thresholds an entry in force accepts: shown as WAIVED, never as passed. */
  readonly waived: readonly ThresholdResult[];
  /** One outcome per load gate entry of the ledger, in its order. */
  readonly outcomes: readonly EntryOutcome[];
}

/**
 * Applies the ledger's load gate entries to a finished run's thresholds. `thresholds` is undefined when the run
 * left none to judge (it did not finish): every entry is then unobserved. An entry of the sliding-expiry gates whose
 * thresholds held in a run that did not put sliding expiry to the test is unobserved too: it proved nothing, and
 * calling it stale would have the next long run fail.
 */
export function applyToThresholds(
  thresholds: readonly ThresholdResult[] | undefined,
  ledger: Ledger | undefined,
  slidingExercised = true,
): AcceptedThresholds {
  const failing = (thresholds ?? []).filter((t) => !t.ok);
  const gates = (ledger?.entries ?? []).filter((entry) => isLoadGateId(entry.id));
  if (ledger === undefined || gates.length === 0) return { failed: failing, waived: [], outcomes: [] };
  const { applying: entries, notApplied } = entriesInScope(gates, ledger);
  const inForce = entries.filter((entry) => !hasExpired(entry, ledger.today));
  const waived = failing.filter((t) => inForce.some((entry) => gateMatches(entry.id, t.metric)));
  const applied = entries.map((entry): EntryOutcome => {
    const gates = (thresholds ?? []).filter((t) => gateMatches(entry.id, t.metric));
    if (thresholds === undefined || gates.length === 0) {
      const why = thresholds === undefined ? "the run was not judged" : "no such threshold in this run";
      return unobserved(entry, why);
    }
    const failing = gates.some((t) => !t.ok);
    if (!failing && !slidingExercised && gates.every((t) => isExpiryMetric(t.metric))) {
      return unobserved(entry, "sliding expiry was not exercised (see the sliding-expiry verdict)");
    }
    return judgeEntry(entry, failing, hasExpired(entry, ledger.today), "MUST");
  });
  const outcomes = inLedgerOrder([...applied, ...notApplied], ledger);
  return { failed: failing.filter((t) => !waived.includes(t)), waived, outcomes };
}
