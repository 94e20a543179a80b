import type { K6RunResult } from "../../k6-tooling/index.ts";
import { K6_EXIT } from "../../k6-tooling/index.ts";
import { formatDuration } from "../../reporting/index.ts";
import type { RunEnding } from "../../reporting/load/index.ts";
import { interruption } from "../interruption.ts";

/** How one k6 run ended: only a k6 that finished its test (exit 0, or 99 for crossed thresholds) has a verdict. */
export function k6Ending(result: K6RunResult, signal: AbortSignal, maxSeconds: number): RunEnding {
  if (result.aborted) return { kind: "aborted", reason: interruption(signal) };
  if (result.timedOut) {
    return {
      kind: "aborted",
      reason: `k6 did not finish within ${formatDuration(maxSeconds * 1000)} and was stopped`,
    };
  }
  switch (result.exitCode) {
    case 0:
    case K6_EXIT.thresholdsFailed:
      return { kind: "finished" };
    case K6_EXIT.invalidConfig:
      return { kind: "undecided", reason: "k6 rejected the test configuration (exit 104)" };
    case K6_EXIT.scriptException:
    case K6_EXIT.scriptAborted:
      return { kind: "undecided", reason: `the k6 script stopped with an error (exit ${result.exitCode})` };
    default:
      return { kind: "undecided", reason: `k6 exited with ${result.exitCode ?? "a signal"}` };
  }
}
