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
  readonly failedThresholds: readonly ThresholdResult[];
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
  regressed: readonly string[] = [],
): LoadResult {
  const failedThresholds = (thresholds ?? []).filter((t) => !t.ok);
  if (ending.kind !== "finished")
    return { outcome: ending.kind, reason: ending.reason, failedThresholds, regressed };
  if (thresholds === undefined) {
    return { outcome: "undecided", reason: "k6 wrote no end-of-test summary", failedThresholds, regressed };
  }
  const failed = failedThresholds.length > 0 || regressed.length > 0;
  return { outcome: failed ? "failed" : "passed", reason: undefined, failedThresholds, regressed };
}

/** The result in one line: `PASSED`, `FAILED (2 threshold(s))`, `ABORTED: interrupted (received SIGINT)`. */
export function describeResult(result: LoadResult): string {
  const title = OUTCOME_TITLE[result.outcome];
  if (result.outcome === "failed") {
    const gates =
      result.regressed.length > 0
        ? `, ${result.regressed.length} figure(s) REGRESSED against the baseline`
        : "";
    return `${title} (${result.failedThresholds.length} threshold(s)${gates})`;
  }
  return result.reason === undefined ? title : `${title}: ${result.reason}`;
}
