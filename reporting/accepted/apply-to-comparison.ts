import type { FigureComparison, LoadComparison } from "../compare/compare-load.ts";
import { entriesInScope, inLedgerOrder } from "./binding.ts";
import type { EntryOutcome } from "./entry-outcome.ts";
import { judgeEntry, unobserved } from "./entry-outcome.ts";
import { BASELINE_GATE_PREFIX, isBaselineGateId } from "./gate-ids.ts";
import type { Ledger } from "./ledger.ts";
import { describeAcceptance, hasExpired } from "./ledger.ts";

export interface AcceptedComparison {
  /** The comparison with every REGRESSED figure an entry in force accepts marked WAIVED (never UNCHANGED). */
  readonly comparison: LoadComparison;
  /** One outcome per baseline entry of the ledger, in its order. */
  readonly outcomes: readonly EntryOutcome[];
}

/**
 * Applies the ledger's baseline entries (`baseline.events.p95`) to a comparison: a REGRESSED figure, over the whole
 * run or in a window, is WAIVED while its entry is in force and stays REGRESSED once expired. An entry whose figure
 * was judged and did not regress is stale; one whose figure was not judged or undecided is unobserved.
 */
export function applyToComparison(
  comparison: LoadComparison,
  ledger: Ledger | undefined,
): AcceptedComparison {
  const baselineEntries = (ledger?.entries ?? []).filter((entry) => isBaselineGateId(entry.id));
  if (ledger === undefined || baselineEntries.length === 0) return { comparison, outcomes: [] };
  const { applying: entries, notApplied } = entriesInScope(baselineEntries, ledger);
  const entryOf = (figure: FigureComparison) =>
    entries.find((entry) => entry.id === `${BASELINE_GATE_PREFIX}${figure.id}`);
  const mark = (figure: FigureComparison): FigureComparison => {
    const entry = entryOf(figure);
    if (entry === undefined || figure.status !== "REGRESSED") return figure;
    if (hasExpired(entry, ledger.today)) {
      return { ...figure, reason: `${figure.reason} [accepted until ${entry.expires}, expired]` };
    }
    return {
      ...figure,
      status: "WAIVED",
      reason: `${figure.reason} [WAIVED: ${describeAcceptance(entry)}: ${entry.reason}]`,
    };
  };
  const applied = entries.map((entry): EntryOutcome => {
    const figures = [...comparison.figures, ...comparison.windows].filter(
      (f) => `${BASELINE_GATE_PREFIX}${f.id}` === entry.id,
    );
    const decided = figures.filter((f) => f.status !== "NOT JUDGED" && f.status !== "INCONCLUSIVE");
    if (decided.length === 0) {
      const why = figures.some((f) => f.status === "INCONCLUSIVE")
        ? "it was inconclusive"
        : "it was not judged";
      return unobserved(entry, why);
    }
    return judgeEntry(
      entry,
      figures.some((f) => f.status === "REGRESSED"),
      hasExpired(entry, ledger.today),
      "MUST",
    );
  });
  return {
    comparison: {
      ...comparison,
      figures: comparison.figures.map(mark),
      windows: comparison.windows.map(mark),
    },
    outcomes: inLedgerOrder([...applied, ...notApplied], ledger),
  };
}
