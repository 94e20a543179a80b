import { z } from "zod";

/** One accepted deviation: a check or load gate that may fail until `expires`, for a stated reason. */
export interface LedgerEntry {
  readonly id: string;
  readonly reason: string;
  readonly ticket?: string;
  /** Last day (YYYY-MM-DD, UTC) the deviation is accepted; absent only for SHOULD checks. */
  readonly expires?: string;
  /** The config environment (`-e NAME`) the entry applies to; in any other run it does not apply. */
  readonly environment?: string;
  /** The base URL of the API the entry applies to, as written; a run against any other does not apply it. */
  readonly target?: string;
}

/**
 * What a run was against, which an entry's binding is matched with. `environment` is the config environment the
 * settings came from (undefined without a config file); `target` the API's base URL, or the embedded sandbox.
 */
export interface LedgerScope {
  readonly environment: string | undefined;
  readonly target: { readonly baseUrl: string } | "embedded";
}

/** A ledger as read from its file, with the day the run judges expiry by. */
export interface Ledger {
  /** The file as the user named it, for messages. */
  readonly file: string;
  readonly entries: readonly LedgerEntry[];
  /** Today (YYYY-MM-DD, UTC): an entry whose `expires` is before it has expired. */
  readonly today: string;
  /** What the run was against; absent where the command cannot tell (compare, load-merge): no bound entry applies. */
  readonly scope?: LedgerScope;
}

/** An environment's name, by the config file's own rule, so an entry can name only an environment a file can hold. */
export const LEDGER_ENVIRONMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Where a base URL points, for matching: scheme, host and port as URL reads them, and the path without a final /. */
export function targetKey(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
  } catch {
    return undefined;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
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
  environment: z
    .string()
    .regex(
      LEDGER_ENVIRONMENT_NAME,
      "must be the name of an environment of the config file (letters, digits, . _ -)",
    )
    .optional()
    .describe("The config environment (-e NAME) the entry applies to; it does not apply in any other run."),
  target: z
    .string()
    .trim()
    .refine(isHttpUrl, "the base URL of the API, http:// or https://")
    .refine((url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url), "a base URL here holds no credentials")
    .refine((url) => !/[?#]/.test(url), "the base URL of the API, without a query or fragment")
    .optional()
    .describe("The base URL of the API the entry applies to; it does not apply to any other target."),
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
