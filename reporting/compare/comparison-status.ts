/**
 * A gated figure's verdict against its baseline. The accepted-deviations ledger adds WAIVED (a REGRESSED gate it
 * accepts), so code that switches on a status handles every member of `GateStatus`, not only these four.
 */
export type ComparisonStatus = "IMPROVED" | "UNCHANGED" | "REGRESSED" | "INCONCLUSIVE";

export type GateStatus = ComparisonStatus | "WAIVED";

/**
 * A figure's own status: besides a gate's, NOT JUDGED for a figure whose samples were too few to tell a change that
 * matters from none. It is named in every report and kept out of the comparison's verdict.
 */
export type FigureStatus = GateStatus | "NOT JUDGED";

/** Which overall verdicts fail a run: a regression always; an inconclusive comparison when the user asks so. */
export type FailOn = "regressed" | "inconclusive";

export const FAIL_ON_CHOICES: readonly FailOn[] = ["regressed", "inconclusive"];

/** Whether a comparison's verdict fails the run: REGRESSED always, INCONCLUSIVE with `--fail-on inconclusive`. */
export function failsRun(status: GateStatus, failOn: FailOn = "regressed"): boolean {
  return status === "REGRESSED" || (failOn === "inconclusive" && status === "INCONCLUSIVE");
}
