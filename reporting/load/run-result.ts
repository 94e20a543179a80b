import { applyToThresholds } from "../accepted/apply-to-thresholds.ts";
import type { EntryOutcome } from "../accepted/entry-outcome.ts";
import type { Ledger } from "../accepted/ledger.ts";
import type { ThresholdResult } from "./summary-data.ts";

/**
 * How a load run ended, as the harness saw it: k6 finished the test, was stopped before its end (Ctrl+C, SIGTERM,
 * the watchdog), or ended in a way that proves nothing (a script error, no summary).
 */
export type RunEnding =
  | { readonly kind: "finished" }
  | { readonly kind: "aborted"; readonly reason: string }
  | { readonly kind: "undecided"; readonly reason: string };

export const FINISHED: RunEnding = { kind: "finished" };

export type LoadOutcome = "passed" | "failed" | "aborted" | "undecided";

/** The one verdict of a load run, which every report and the exit code read. */
export interface LoadResult {
  readonly outcome: LoadOutcome;
  /** Why a run that did not finish has no pass or fail. */
  readonly reason: string | undefined;
  /** Failed thresholds that fail the run: no entry of the ledger in force accepts them. */
  readonly failedThresholds: readonly ThresholdResult[];
  /** Failed thresholds the ledger accepts: WAIVED, never shown as passed. */
  readonly waivedThresholds: readonly ThresholdResult[];
  /** What became of each load gate entry of the ledger (empty without one). */
  readonly accepted: readonly EntryOutcome[];
  /** Gated figures a baseline comparison found REGRESSED (`events.p95 window 240–300 s`): each fails the run. */
  readonly regressed: readonly string[];
}

/** How each outcome is written in reports. */
export const OUTCOME_TITLE = {
  passed: "PASSED",
  failed: "FAILED",
  aborted: "ABORTED",
  undecided: "NO VERDICT",
} as const satisfies Record<LoadOutcome, string>;

/**
 * Decides a load run's verdict: only a finished run passes or fails on its thresholds; a stopped one is aborted
 * whatever its partial numbers say. `thresholds` is undefined when k6 left no end-of-test summary.
 */
export function loadResult(
  thresholds: readonly ThresholdResult[] | undefined,
  ending: RunEnding,
  ledger?: Ledger,
  regressed: readonly string[] = [],
): LoadResult {
  const judged = ending.kind === "finished" ? thresholds : undefined;
  const accepted = applyToThresholds(judged, ledger);
  const base = {
    failedThresholds: ending.kind === "finished" ? accepted.failed : (thresholds ?? []).filter((t) => !t.ok),
    waivedThresholds: accepted.waived,
    accepted: accepted.outcomes,
    regressed,
  };
  if (ending.kind !== "finished") return { outcome: ending.kind, reason: ending.reason, ...base };
  if (thresholds === undefined) {
    return { outcome: "undecided", reason: "k6 wrote no end-of-test summary", ...base };
  }
  const failed = base.failedThresholds.length > 0 || regressed.length > 0;
  return { outcome: failed ? "failed" : "passed", reason: undefined, ...base };
}

/** The result in one line: `PASSED`, `FAILED (2 threshold(s))`, `ABORTED: interrupted (received SIGINT)`. */
export function describeResult(result: LoadResult): string {
  const title = OUTCOME_TITLE[result.outcome];
  const waived = result.waivedThresholds.length > 0 ? `${result.waivedThresholds.length} WAIVED` : undefined;
  if (result.outcome === "failed") {
    const gates =
      result.regressed.length > 0
        ? `${result.regressed.length} figure(s) REGRESSED against the baseline`
        : undefined;
    return `${title} (${[`${result.failedThresholds.length} threshold(s)`, gates, waived].filter(Boolean).join(", ")})`;
  }
  if (result.reason !== undefined) return `${title}: ${result.reason}`;
  return waived === undefined ? title : `${title} (${waived})`;
}

/** How a threshold reads in reports: a failed one the ledger accepts is WAIVED, never a pass. */
export type ThresholdStatus = "PASS" | "FAIL" | "WAIVED";

export function thresholdStatus(threshold: ThresholdResult, result: LoadResult): ThresholdStatus {
  if (threshold.ok) return "PASS";
  const waived = result.waivedThresholds.some(
    (t) => t.metric === threshold.metric && t.expression === threshold.expression,
  );
  return waived ? "WAIVED" : "FAIL";
}
