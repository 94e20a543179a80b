import { ledgerNote } from "../accepted/describe-outcomes.ts";
import { describeCounts } from "../contract/index.ts";
import type { PartDetails } from "./part-details.ts";

/**
 * What gated a part, in one clause: a load part's own verdict line without its first word (`thresholds held;
 * baseline UNCHANGED (token latency not judged: 6 samples)`), a checks part's counts and its ledger's notes.
 */
export function partGate(part: PartDetails): string | undefined {
  if (part.capacity?.verdictLine !== undefined)
    return part.capacity.verdictLine.replace(/^[A-Z][A-Z ]*: /, "");
  if (part.load?.verdictLine !== undefined) return part.load.verdictLine.replace(/^[A-Z][A-Z ]*: /, "");
  if (part.checks === undefined || part.checks.checks.length === 0) return undefined;
  const note = ledgerNote(part.checks.accepted);
  return `${describeCounts(part.checks.checks)}${note === undefined ? "" : `; ${note}`}`;
}

/**
 * Whether the run's own verdict line names a part's gate: every load part (its thresholds and its baseline), and a
 * checks part whose ledger waived a check or asks for a look; a checks part that merely passed is in the table.
 */
export function gateWorthNaming(part: PartDetails): boolean {
  if (part.load?.verdictLine !== undefined || part.capacity?.verdictLine !== undefined) return true;
  const checks = part.checks;
  return (
    checks !== undefined &&
    (checks.checks.some((check) => check.status === "WAIVED") || ledgerNote(checks.accepted) !== undefined)
  );
}
