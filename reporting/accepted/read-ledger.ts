import { ALL_CHECKS, rotationChecks } from "../../contracts/index.ts";
import { inertText, readInputFile } from "../../transport/index.ts";
import { bindingsDisjoint } from "./binding.ts";
import { BASELINE_GATE_IDS, isBaselineGateId, isLoadGateId, NEVER_WAIVED } from "./gate-ids.ts";
import type { Ledger, LedgerEntry } from "./ledger.ts";
import { LEDGER_FILE_SCHEMA } from "./ledger.ts";

/** Why a ledger cannot be used, naming the entry; the CLI turns it into a usage error (exit 2). */
export interface LedgerProblem {
  readonly message: string;
  /** The id an entry names that matches no check, so the CLI can suggest the closest one. */
  readonly unknownId?: string;
}

export type LedgerReading =
  | { readonly ok: true; readonly ledger: Ledger }
  | { readonly ok: false; readonly problem: LedgerProblem };

// Rotation checks are MUST once the user states an expectation, so their entries need an expiry too.
const CHECKS = [...ALL_CHECKS, ...rotationChecks({ expectOld: "refused", expectOldTokens: "revoked" })];

/** Every id a ledger entry may name besides load gates. */
export const CONTRACT_CHECK_IDS: readonly string[] = CHECKS.map((check) => check.id);

const MUST_IDS = new Set(CHECKS.filter((check) => check.level === "MUST").map((check) => check.id));

function where(index: number, entry: { id?: unknown }): string {
  return `entry ${index + 1}${typeof entry.id === "string" ? ` (${entry.id})` : ""}`;
}

/** Every id a ledger may name but load gates (load.METRIC, open-ended): for "did you mean". */
export const LEDGER_IDS: readonly string[] = [...CONTRACT_CHECK_IDS, ...BASELINE_GATE_IDS];

/** How far ahead an entry may run: about a year, so that every acceptance is looked at again. */
const MAX_AHEAD_DAYS = 366;

/** The last day an entry written today may name. */
function latestExpiry(today: string): string {
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + MAX_AHEAD_DAYS);
  return day.toISOString().slice(0, 10);
}

/**
 * Checks what the schema cannot: known ids, none that no ledger may waive, no id twice for the same run, an expiry
 * date where the level demands one and never more than about a year ahead.
 */
function entryProblem(entries: readonly LedgerEntry[], today: string): LedgerProblem | undefined {
  const latest = latestExpiry(today);
  for (const [index, entry] of entries.entries()) {
    const at = where(index, entry);
    const earlier = entries.slice(0, index).filter((other) => other.id === entry.id);
    if (earlier.some((other) => !bindingsDisjoint(other, entry))) {
      return {
        message: `${at}: the id is accepted twice for the same run: bind each entry to a different environment or target`,
      };
    }
    if (NEVER_WAIVED.includes(entry.id)) {
      return {
        message: `${at}: no ledger may waive it: the redirect gate and the API's authentication refusals (${NEVER_WAIVED.join(", ")}) always count`,
      };
    }
    const gate = isLoadGateId(entry.id) || isBaselineGateId(entry.id);
    const known = isLoadGateId(entry.id) || LEDGER_IDS.includes(entry.id);
    if (!known) {
      return {
        message: `${at}: names no check, load gate or baseline figure (load gates are written load.METRIC, baseline figures baseline.FIGURE)`,
        unknownId: entry.id,
      };
    }
    if (entry.expires === undefined && (gate || MUST_IDS.has(entry.id))) {
      return {
        message: `${at}: expires (YYYY-MM-DD) is required for MUST checks, load gates and baseline figures`,
      };
    }
    if (entry.expires !== undefined && entry.expires > latest) {
      return {
        message: `${at}: expires ${entry.expires} is more than a year ahead (at most ${latest}): renew the entry when it is due`,
      };
    }
  }
  return undefined;
}

/** What a JSON value is, in the words of a sentence: "a list", "a string", "null". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The file's shape, said as the sentence a reader can act on (a list of entries is the likeliest slip), before the
 * schema judges the entries' fields.
 */
function shapeProblem(json: unknown): string | undefined {
  const ledger = '{ "accepted": [ … ] }';
  if (Array.isArray(json))
    return `a ledger is an object, ${ledger}, not a list: put the entries in its "accepted" list`;
  if (!isObject(json)) return `a ledger is an object, ${ledger}, not ${kindOf(json)}`;
  if (json.accepted === undefined)
    return 'the ledger has no "accepted" list: write { "accepted": [] } for none';
  if (!Array.isArray(json.accepted))
    return `"accepted" is a list of entries, [ { "id": …, "reason": … } ], not ${kindOf(json.accepted)}`;
  const index = json.accepted.findIndex((entry) => !isObject(entry));
  if (index >= 0) {
    const fields = '{ "id": …, "reason": …, "ticket": …, "expires": … }';
    return `entry ${index + 1}: an entry is an object, ${fields}, not ${kindOf(json.accepted[index])}`;
  }
  return undefined;
}

/** Parses a ledger file's text; `file` names it in messages. */
export function parseLedger(text: string, file: string, today: string): LedgerReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: { message: `${file} is not JSON: ${(error as Error).message}` } };
  }
  const shape = shapeProblem(json);
  if (shape !== undefined) return { ok: false, problem: { message: `${file}: ${shape}` } };
  const parsed = LEDGER_FILE_SCHEMA.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const entry =
      path[0] === "accepted" && typeof path[1] === "number"
        ? `${where(path[1], (json as { accepted: { id?: unknown }[] }).accepted[path[1]] ?? {})}: `
        : "";
    const field = path.length > 2 ? `${String(path[2])}: ` : "";
    const message =
      issue?.code === "unrecognized_keys"
        ? `unknown key ${issue.keys.map((k) => `'${k}'`).join(", ")}`
        : issue?.message;
    return { ok: false, problem: { message: `${file}: ${entry}${field}${message ?? "invalid"}` } };
  }
  // A ledger is an input file: its words are shown on consoles and in reports, never obeyed there.
  const entries: LedgerEntry[] = parsed.data.accepted.map((entry) => ({
    id: inertText(entry.id),
    reason: inertText(entry.reason),
    ...(entry.ticket === undefined ? {} : { ticket: inertText(entry.ticket) }),
    ...(entry.expires === undefined ? {} : { expires: entry.expires }),
    ...(entry.environment === undefined ? {} : { environment: entry.environment }),
    ...(entry.target === undefined ? {} : { target: inertText(entry.target) }),
  }));
  const problem = entryProblem(entries, today);
  if (problem) return { ok: false, problem: { ...problem, message: `${file}: ${problem.message}` } };
  return { ok: true, ledger: { file, entries, today } };
}

/** Reads and parses a ledger file; a file that cannot be read is a problem too. */
export async function readLedger(file: string, today: string): Promise<LedgerReading> {
  const reading = await readInputFile(file);
  if (!reading.ok)
    return { ok: false, problem: { message: `cannot read the ledger ${file}: ${reading.problem}` } };
  return parseLedger(reading.text, file, today);
}
