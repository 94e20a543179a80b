import type { Acceptance, CheckLevel } from "../../contracts/index.ts";
import type { LedgerEntry } from "./ledger.ts";

/**
 * What became of an entry in one run: `waived` (its check failed and the entry is in force), `expired` (its check
 * failed after the entry's last day), `stale` (its check passed: the entry can go), `unobserved` (its check did not
 * run or could not be decided, which proves neither).
 */
export type EntryState = Acceptance["state"];

export interface EntryOutcome {
  readonly entry: LedgerEntry;
  readonly state: EntryState;
  /** One sentence for reports, e.g. "passes now: remove the entry". */
  readonly detail: string;
  /**
   * The level of what the entry waives once judged: a contract check's own, MUST for load gates and baseline
   * figures. A stale entry at MUST is said loudly: its next failure would pass as WAIVED.
   */
  readonly level?: CheckLevel;
}

export function acceptanceOf(entry: LedgerEntry, state: EntryState): Acceptance {
  return {
    state,
    reason: entry.reason,
    ...(entry.ticket === undefined ? {} : { ticket: entry.ticket }),
    ...(entry.expires === undefined ? {} : { expires: entry.expires }),
  };
}

const STALE = "passes now: remove the entry";

/** The outcome of an entry whose check or gate, at `level`, was judged `failing` (or not) in this run. */
export function judgeEntry(
  entry: LedgerEntry,
  failing: boolean,
  expired: boolean,
  level: CheckLevel,
): EntryOutcome {
  if (!failing) return { entry, state: "stale", detail: STALE, level };
  if (expired)
    return {
      entry,
      state: "expired",
      detail: `accepted until ${entry.expires}, expired: it fails again`,
      level,
    };
  return { entry, state: "waived", detail: `fails, waived: ${entry.reason}`, level };
}

export function unobserved(entry: LedgerEntry, why: string): EntryOutcome {
  return { entry, state: "unobserved", detail: `not observed: ${why}` };
}
