import { inertText } from "../../transport/index.ts";
import type { EntryOutcome } from "./entry-outcome.ts";
import type { Ledger, LedgerEntry, LedgerScope } from "./ledger.ts";
import { targetKey } from "./ledger.ts";

/**
 * Why an entry does not apply to the run, or undefined when it does: an entry bound to an environment or a target
 * applies only to runs of that environment and target, so a waiver written for one server never silences another.
 */
export function bindingMismatch(entry: LedgerEntry, scope: LedgerScope | undefined): string | undefined {
  if (entry.environment !== undefined) {
    const bound = `bound to environment '${entry.environment}'`;
    if (scope === undefined) return `${bound}, and this command cannot tell which environment the run took`;
    if (scope.environment === undefined) return `${bound}, and this run took no environment of a config file`;
    if (scope.environment !== entry.environment)
      return `${bound}, and this run's is '${inertText(scope.environment)}'`;
  }
  if (entry.target !== undefined) {
    const bound = `bound to target ${entry.target}`;
    if (scope === undefined) return `${bound}, and this command cannot tell which target the run tested`;
    if (scope.target === "embedded") return `${bound}, and this run tested the embedded sandbox`;
    if (targetKey(scope.target.baseUrl) !== targetKey(entry.target))
      return `${bound}, and this run tested another base URL`;
  }
  return undefined;
}

/** Whether no run can match both entries: bound to different environments, or to different targets. */
export function bindingsDisjoint(a: LedgerEntry, b: LedgerEntry): boolean {
  const environments =
    a.environment !== undefined && b.environment !== undefined && a.environment !== b.environment;
  const targets =
    a.target !== undefined && b.target !== undefined && targetKey(a.target) !== targetKey(b.target);
  return environments || targets;
}

/** The entries that apply to the ledger's run, and the outcome of each that does not. */
export function entriesInScope(
  entries: readonly LedgerEntry[],
  ledger: Ledger,
): { readonly applying: LedgerEntry[]; readonly notApplied: EntryOutcome[] } {
  const applying: LedgerEntry[] = [];
  const notApplied: EntryOutcome[] = [];
  for (const entry of entries) {
    const mismatch = bindingMismatch(entry, ledger.scope);
    if (mismatch === undefined) applying.push(entry);
    else notApplied.push({ entry, state: "not-applied", detail: mismatch });
  }
  return { applying, notApplied };
}

/** Outcomes in the order of the ledger's entries, as every report lists them. */
export function inLedgerOrder(outcomes: readonly EntryOutcome[], ledger: Ledger): EntryOutcome[] {
  return [...outcomes].sort((a, b) => ledger.entries.indexOf(a.entry) - ledger.entries.indexOf(b.entry));
}
