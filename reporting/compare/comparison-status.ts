/**
 * A gated figure's verdict against its baseline. The accepted-deviations ledger adds WAIVED (a REGRESSED gate it
 * accepts), so code that switches on a status handles every member of `GateStatus`, not only these four.
 */
export type ComparisonStatus = "IMPROVED" | "UNCHANGED" | "REGRESSED" | "INCONCLUSIVE";

export type GateStatus = ComparisonStatus | "WAIVED";

/** Only a regression fails a run: an inconclusive figure is reported as such, never as a pass or a failure. */
export function failsRun(status: GateStatus): boolean {
  return status === "REGRESSED";
}
