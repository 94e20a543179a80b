import { stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../../core/index.ts";
import type { ContractCheckRecord, ContractRunRecord, LoadRecord } from "../../reporting/compare/index.ts";
import { claimsLoadRecord, LOAD_RECORD_FORMAT, parseLoadRecord } from "../../reporting/compare/index.ts";
import { inertText, MAX_RECORD_FILE_BYTES, readInputFile } from "../../transport/index.ts";
import { jsonErrorPosition } from "../config/index.ts";
import { displayPath } from "../display-path.ts";

/** The file a load run keeps in its report dir for later comparisons; `--save-baseline` copies it. */
export const LOAD_RECORD_FILE = "baseline.json";
/** The contract run's machine-readable results, compared check by check. */
const CONTRACT_RESULTS_FILE = "results.json";

export type Comparable =
  | { readonly kind: "load"; readonly name: string; readonly record: LoadRecord }
  | { readonly kind: "contract"; readonly name: string; readonly run: ContractRunRecord };

function refuse(message: string, command: string): UsageError {
  return new UsageError("invalid-config", message, command);
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** A contract results.json's checks and what the run was (profile, client, target); undefined for another file. */
function contractRun(value: unknown): ContractRunRecord | undefined {
  const checks = (value as { checks?: unknown } | null)?.checks;
  if (!Array.isArray(checks)) return undefined;
  const out: ContractCheckRecord[] = [];
  for (const check of checks) {
    const { id, status } = (check ?? {}) as { id?: unknown; status?: unknown };
    if (typeof id !== "string" || typeof status !== "string") return undefined;
    // Read from a file anyone may have written: its words are shown, never obeyed.
    out.push({ id: inertText(id), status: inertText(status) });
  }
  const { profile, target } = value as { profile?: unknown; target?: unknown };
  const { clientId, baseUrl, embedded } = (typeof target === "object" && target !== null ? target : {}) as {
    clientId?: unknown;
    baseUrl?: unknown;
    embedded?: unknown;
  };
  const fromFile = { profile: text(profile), clientId: text(clientId), baseUrl: text(baseUrl) };
  return {
    checks: out,
    ...(fromFile.profile === undefined ? {} : { profile: fromFile.profile }),
    ...(fromFile.clientId === undefined ? {} : { clientId: fromFile.clientId }),
    ...(fromFile.baseUrl === undefined ? {} : { baseUrl: fromFile.baseUrl }),
    ...(typeof embedded === "boolean" ? { embedded } : {}),
  };
}

/**
 * Reads what `compare` and `load --baseline` compare: a baseline file, a load report dir (its baseline.json) or a
 * contract report dir or results.json. Anything else is a usage error naming the path.
 */
export async function readComparable(
  given: string,
  command: string,
  signal?: AbortSignal,
): Promise<Comparable> {
  const info = await stat(given).catch(() => undefined);
  if (info === undefined) throw refuse(`${displayPath(given)} does not exist`, command);
  let file = given;
  if (info.isDirectory()) {
    const candidates = [LOAD_RECORD_FILE, CONTRACT_RESULTS_FILE].map((name) => path.join(given, name));
    const found = await Promise.all(
      candidates.map((c) =>
        stat(c).then(
          () => c,
          () => undefined,
        ),
      ),
    );
    const first = found.find((c) => c !== undefined);
    if (first === undefined) {
      throw refuse(
        `${displayPath(given)} holds neither ${LOAD_RECORD_FILE} (a load run) nor ${CONTRACT_RESULTS_FILE} (a contract run)`,
        command,
      );
    }
    file = first;
  }
  const reading = await readInputFile(file, MAX_RECORD_FILE_BYTES);
  if (!reading.ok) throw refuse(`cannot read ${displayPath(file)}: ${reading.problem}`, command);
  // Parsing and validating a long record holds the event loop for a while: not begun once a signal came.
  signal?.throwIfAborted();
  let value: unknown;
  try {
    value = JSON.parse(reading.text);
  } catch {
    // The parser's own message quotes the text around the error, which may hold a secret: only the place is named.
    const at = jsonErrorPosition(reading.text);
    throw refuse(
      `cannot read ${displayPath(file)} as JSON: not valid${at === undefined ? "" : ` at line ${at.line}, column ${at.column}`}`,
      command,
    );
  }
  if (claimsLoadRecord(value)) {
    const reading = parseLoadRecord(value);
    if (!reading.ok)
      throw refuse(`${displayPath(file)} is no usable load baseline: ${reading.problem}`, command);
    return { kind: "load", name: displayPath(file), record: reading.record };
  }
  const run = contractRun(value);
  if (run !== undefined) return { kind: "contract", name: displayPath(file), run };
  throw refuse(
    `${displayPath(file)} is neither a load baseline (format ${LOAD_RECORD_FORMAT}) nor a contract results.json`,
    command,
  );
}

/**
 * Refuses, with exit 2, two load runs whose settings differ or whose targets make them different experiments
 * (the embedded sandbox against a deployed API, other sandbox faults), naming each difference.
 */
export function checkComparable(
  differences: readonly string[],
  mismatches: readonly string[],
  command: string,
): void {
  if (differences.length > 0) {
    throw refuse(
      `cannot compare runs with different load settings (${differences.join(", ")}): run the candidate with the baseline's settings`,
      command,
    );
  }
  if (mismatches.length > 0) {
    throw refuse(
      `cannot compare runs against different targets (${mismatches.join("; ")}): a baseline belongs to the target it was taken on`,
      command,
    );
  }
}
