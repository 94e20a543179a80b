import { ALL_CHECKS } from "../../contracts/checks/catalogue.ts";
import { rotationChecks } from "../../contracts/checks/credential-rotation.ts";
import { inertText, readInputFile } from "../../transport/index.ts";
import { isLoadGateId } from "./gate-ids.ts";
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

/** Checks what the schema cannot: known ids, no id twice, an expiry date where the level demands one. */
function entryProblem(entries: readonly LedgerEntry[]): LedgerProblem | undefined {
  const seen = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const at = where(index, entry);
    if (seen.has(entry.id)) return { message: `${at}: the id is accepted twice` };
    seen.add(entry.id);
    const gate = isLoadGateId(entry.id);
    if (!gate && !CONTRACT_CHECK_IDS.includes(entry.id)) {
      return {
        message: `${at}: names no check or load gate (load gates are written load.METRIC)`,
        unknownId: entry.id,
      };
    }
    if (entry.expires === undefined && (gate || MUST_IDS.has(entry.id))) {
      return { message: `${at}: expires (YYYY-MM-DD) is required for MUST checks and load gates` };
    }
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
    id: entry.id,
    reason: inertText(entry.reason),
    ...(entry.ticket === undefined ? {} : { ticket: inertText(entry.ticket) }),
    ...(entry.expires === undefined ? {} : { expires: entry.expires }),
  }));
  const problem = entryProblem(entries);
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
