import type { CheckLevel } from "../../contracts/index.ts";
import type { PartDetails } from "./part-details.ts";
import type { PartOutcome, PartVerdict } from "./run-outcome.ts";

/** One thing that failed or could not be decided, as the part's own reports name it. */
export type LeadItem =
  | {
      readonly kind: "check";
      readonly status: "FAIL" | "ERROR";
      readonly id: string;
      readonly level: CheckLevel;
      readonly message: string;
    }
  | {
      readonly kind: "threshold";
      readonly metric: string;
      readonly expression: string;
      readonly observed: string | undefined;
    }
  | { readonly kind: "sliding-expiry"; readonly reason: string }
  | { readonly kind: "baseline"; readonly figure: string }
  /** Why a load run failed beyond its thresholds (`no event was accepted`). */
  | { readonly kind: "reason"; readonly reason: string }
  /** Why a part could not decide or did not run, in the harness's own words. */
  | { readonly kind: "note"; readonly note: string };

/** k6's own metric of the iterations an arrival-rate scenario could not start. */
const DROPPED_ITERATIONS = "dropped_iterations";

/** A part that did not pass: what failed in it, and where its evidence is. */
export interface PartLead {
  readonly part: PartOutcome;
  readonly items: readonly LeadItem[];
  /** The part's own summary (or its first report file), relative to the run directory, when it wrote one. */
  readonly evidence: string | undefined;
}

/** The order failures lead in: what failed, then what could not be decided, was stopped, or did not run. */
export const LEAD_ORDER: readonly PartVerdict[] = ["failed", "undecided", "aborted", "skipped"];

function itemsOf(part: PartDetails): LeadItem[] {
  const items: LeadItem[] = [];
  const { outcome } = part;
  if (outcome.note !== undefined) items.push({ kind: "note", note: outcome.note });
  for (const status of ["FAIL", "ERROR"] as const) {
    for (const check of part.checks?.checks ?? []) {
      if (check.status === status)
        items.push({ kind: "check", status, id: check.id, level: check.level, message: check.message });
    }
  }
  const load = part.load;
  if (load !== undefined) {
    if (load.reason !== undefined && outcome.verdict === "failed")
      items.push({ kind: "reason", reason: load.reason });
    const waived = (metric: string, expression: string) =>
      load.waived.some((w) => w.metric === metric && w.expression === expression);
    for (const t of load.thresholds) {
      if (!t.ok && !waived(t.metric, t.expression)) {
        items.push({ kind: "threshold", metric: t.metric, expression: t.expression, observed: t.observed });
        // The count alone does not say why: k6's reason, when it gave one, follows it.
        if (t.metric === DROPPED_ITERATIONS && load.droppedCause !== undefined)
          items.push({ kind: "reason", reason: `dropped iterations: ${load.droppedCause}` });
      }
    }
    if (load.slidingExpiry?.level === "broken") {
      for (const reason of load.slidingExpiry.reasons) items.push({ kind: "sliding-expiry", reason });
    }
  }
  for (const figure of part.comparison?.figures ?? []) {
    if (figure.status === "REGRESSED") items.push({ kind: "baseline", figure: figure.id });
  }
  return items;
}

/** Every part that did not pass, failed ones first, each with what failed in it and where its evidence is. */
export function failureLeads(parts: readonly PartDetails[]): PartLead[] {
  return LEAD_ORDER.flatMap((verdict) =>
    parts
      .filter((part) => part.outcome.verdict === verdict)
      .map((part) => {
        const summary = part.files.find((file) => file === `${part.outcome.id}/summary.md`);
        return { part: part.outcome, items: itemsOf(part), evidence: summary ?? part.files[0] };
      }),
  );
}

/** An item in one line of plain text, for the console: `bearer.garbage (MUST): expected 401, received 500`. */
export function describeLeadItem(item: LeadItem): string {
  switch (item.kind) {
    case "check":
      return `${item.status.padEnd(5)} ${item.id} (${item.level}): ${item.message}`;
    case "threshold":
      return `FAIL  threshold ${item.metric} ${item.expression}${item.observed ? ` (${item.observed})` : ""}`;
    case "sliding-expiry":
      return `FAIL  sliding expiry BROKEN: ${item.reason}`;
    case "baseline":
      return `FAIL  baseline ${item.figure} REGRESSED`;
    case "reason":
      return `FAIL  ${item.reason}`;
    case "note":
      return item.note;
  }
}
