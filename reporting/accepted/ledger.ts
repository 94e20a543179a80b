import { z } from "zod";

/** One accepted deviation: a check or load gate that may fail until `expires`, for a stated reason. */
export interface LedgerEntry {
  readonly id: string;
  readonly reason: string;
  readonly ticket?: string;
  /** Last day (YYYY-MM-DD, UTC) the deviation is accepted; absent only for SHOULD checks. */
  readonly expires?: string;
}

/** A ledger as read from its file, with the day the run judges expiry by. */
export interface Ledger {
  /** The file as the user named it, for messages. */
  readonly file: string;
  readonly entries: readonly LedgerEntry[];
  /** Today (YYYY-MM-DD, UTC): an entry whose `expires` is before it has expired. */
  readonly today: string;
}

export const LEDGER_ENTRY_SCHEMA = z.strictObject({
  id: z
    .string()
    .trim()
    .min(1)
    .describe("A contract check id (e.g. lifetime.sliding) or a load gate id (load.…)."),
  reason: z
    .string()
    .trim()
    .min(1, "must say why (it is required)")
    .describe("Why the deviation is accepted."),
  ticket: z.string().trim().min(1).optional().describe("Where the fix is tracked, e.g. API-1."),
  expires: z.iso
    .date("must be a calendar date, YYYY-MM-DD")
    .optional()
    .describe("Last day the deviation is accepted (UTC); required for MUST checks and load gates."),
});

export const LEDGER_FILE_SCHEMA = z.strictObject({
  $schema: z.string().optional(),
  accepted: z.array(LEDGER_ENTRY_SCHEMA).describe("The accepted deviations."),
});

/** The day a run judges expiry by, in UTC so CI machines in any time zone agree. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** An entry is in force through its `expires` day and has expired from the day after. */
export function hasExpired(entry: LedgerEntry, today: string): boolean {
  return entry.expires !== undefined && entry.expires < today;
}

/** "accepted until 2027-01-31 (API-1)", the words every report uses for an entry. */
export function describeAcceptance(entry: LedgerEntry): string {
  const until = entry.expires === undefined ? "accepted" : `accepted until ${entry.expires}`;
  return entry.ticket === undefined ? until : `${until} (${entry.ticket})`;
}
