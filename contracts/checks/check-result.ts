import type { Evidence } from "../probe/evidence.ts";
import type { CheckArea, CheckLevel, CheckStatus } from "./check.ts";

/** A check's outcome as written to results.json, JUnit and the summaries. */
export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly area: CheckArea;
  readonly level: CheckLevel;
  readonly rule: string;
  readonly status: CheckStatus;
  readonly message: string;
  readonly durationMs: number;
  readonly evidence: readonly Evidence[];
}
