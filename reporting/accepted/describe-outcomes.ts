import type { EntryOutcome, EntryState } from "./entry-outcome.ts";
import { isContractId } from "./gate-ids.ts";
import { describeAcceptance } from "./ledger.ts";

const STATE_TITLE: Record<EntryState, string> = {
  waived: "WAIVED",
  expired: "EXPIRED",
  stale: "STALE",
  unobserved: "UNOBSERVED",
  "not-applied": "NOT APPLIED",
};

/** One line per entry, e.g. `WAIVED  lifetime.sliding: accepted until 2027-01-31 (API-1): fixed lifetime`. */
export function describeOutcomes(outcomes: readonly EntryOutcome[]): string[] {
  return outcomes.map(({ entry, state, detail }) => {
    const what = state === "waived" ? `${describeAcceptance(entry)}: ${entry.reason}` : detail;
    return `${STATE_TITLE[state].padEnd(10)} ${entry.id}: ${what}`;
  });
}

/** Whether any entry asks the user to act: an expired acceptance fails again, a stale one should be removed. */
export function needsAttention(outcomes: readonly EntryOutcome[]): boolean {
  return outcomes.some((outcome) => outcome.state === "expired" || outcome.state === "stale");
}

/**
 * The entries that ask for a look, counted for a verdict line: `ledger: 1 EXPIRED, 1 STALE, 2 UNOBSERVED`. A stale
 * waiver of a MUST check or a gate is left out: it has its own, louder clause.
 */
export function ledgerNote(
  outcomes: readonly { readonly state: EntryState; readonly level?: EntryOutcome["level"] }[],
): string | undefined {
  const quiet = outcomes.filter((o) => !(o.state === "stale" && o.level === "MUST"));
  const counts = (["expired", "stale", "unobserved"] as const)
    .map((state) => [state, quiet.filter((o) => o.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${STATE_TITLE[state]}`);
  return counts.length === 0 ? undefined : `ledger: ${counts.join(", ")}`;
}

/** What the loud stale warnings read of an outcome, as reports and the run's record keep it. */
export interface OutcomeFacts {
  readonly state: EntryState;
  readonly level?: EntryOutcome["level"];
  readonly entry: { readonly id: string; readonly expires?: string };
}

/**
 * The stale entries that waive a MUST check, a load gate or a baseline figure: each passes now, and while it stays
 * its next failure reads WAIVED and the release passes. Said loudly wherever a reader looks.
 */
export function staleWaivers<T extends OutcomeFacts>(outcomes: readonly T[]): T[] {
  return outcomes.filter((outcome) => outcome.state === "stale" && outcome.level === "MUST");
}

/** The stale waivers for a verdict line: `STALE WAIVER: lifetime.sliding`; undefined when there is none. */
export function staleWaiverClause(outcomes: readonly OutcomeFacts[]): string | undefined {
  const ids = [...new Set(staleWaivers(outcomes).map((outcome) => outcome.entry.id))];
  if (ids.length === 0) return undefined;
  return `STALE WAIVER${ids.length === 1 ? "" : "S"}: ${ids.join(", ")}`;
}

/**
 * The warning a stale waiver gets at the console's end and the top of every report: what passes, which file still
 * waives it until when, and what to do.
 */
export function staleWaiverWarning(outcomes: readonly OutcomeFacts[], file: string): string | undefined {
  const stale = staleWaivers(outcomes).filter(
    (outcome, i, all) => all.findIndex((other) => other.entry.id === outcome.entry.id) === i,
  );
  if (stale.length === 0) return undefined;
  const named = stale.map(({ entry }) => (isContractId(entry.id) ? `${entry.id} (MUST)` : entry.id));
  if (stale.length === 1) {
    const until = stale[0]?.entry.expires === undefined ? "" : ` until ${stale[0].entry.expires}`;
    return `STALE WAIVER: ${named[0]} passes, and ${file} still waives it${until}: remove the entry, or its next failure reads WAIVED and passes`;
  }
  return `STALE WAIVERS: ${named.join(", ")} pass, and ${file} still waives them: remove the entries, or their next failure reads WAIVED and passes`;
}
