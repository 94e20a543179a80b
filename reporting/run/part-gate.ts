import { ledgerNote } from "../accepted/describe-outcomes.ts";
import { describeCounts } from "../contract/index.ts";
import { countNoun } from "../index.ts";
import { namedThresholds } from "../load/index.ts";
import type { PartDetails } from "./part-details.ts";

/** A load part's stale waivers lead the run's verdict line: its own clause for them is not repeated there. */
const STALE_CLAUSE = /; STALE WAIVERS?: [^;]*$/;

/**
 * What gated a part, in one clause: a load part's own verdict line without its first word (`thresholds held;
 * baseline UNCHANGED (token latency not judged: 6 samples)`), or its crossed thresholds when it wrote none; a
 * checks part's counts, naming what failed, and its ledger's notes.
 */
export function partGate(part: PartDetails): string | undefined {
  if (part.capacity?.verdictLine !== undefined)
    return part.capacity.verdictLine.replace(/^[A-Z][A-Z ]*: /, "").replace(STALE_CLAUSE, "");
  const load = part.load;
  if (load?.verdictLine !== undefined)
    return load.verdictLine.replace(/^[A-Z][A-Z ]*: /, "").replace(STALE_CLAUSE, "");
  if (load !== undefined) {
    const waived = (t: { metric: string; expression: string }) =>
      load.waived.some((w) => w.metric === t.metric && w.expression === t.expression);
    const crossed = load.thresholds.filter((t) => !t.ok && !waived(t));
    return crossed.length === 0
      ? undefined
      : `${countNoun(crossed.length, "threshold")} crossed: ${namedThresholds(crossed)}`;
  }
  if (part.checks === undefined || part.checks.checks.length === 0) return undefined;
  const note = ledgerNote(part.checks.accepted);
  return `${describeCounts(part.checks.checks)}${note === undefined ? "" : `; ${note}`}`;
}

/**
 * Whether the run's own verdict line names a passed part's gate: every load part (its thresholds and its
 * baseline), and a checks part whose ledger waived a check or asks for a look; a checks part that merely passed is
 * in the table.
 */
export function gateWorthNaming(part: PartDetails): boolean {
  if (part.load?.verdictLine !== undefined || part.capacity?.verdictLine !== undefined) return true;
  const checks = part.checks;
  return (
    checks !== undefined &&
    (checks.checks.some((check) => check.status === "WAIVED") || ledgerNote(checks.accepted) !== undefined)
  );
}
