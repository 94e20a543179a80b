import type { EntryOutcome, EntryState } from "./entry-outcome.ts";
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

/** The entries that ask for a look, counted for a verdict line: `ledger: 1 EXPIRED, 1 STALE, 2 UNOBSERVED`. */
export function ledgerNote(outcomes: readonly { readonly state: EntryState }[]): string | undefined {
  const counts = (["expired", "stale", "unobserved"] as const)
    .map((state) => [state, outcomes.filter((o) => o.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${STATE_TITLE[state]}`);
  return counts.length === 0 ? undefined : `ledger: ${counts.join(", ")}`;
}
