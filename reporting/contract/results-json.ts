import type { ContractRun } from "./run-summary.ts";
import { countByStatus, verdictOf } from "./run-summary.ts";

/** results.json: the whole run, machine-readable; every check with its id, level, rule, status, message and evidence. */
export function renderResultsJson(run: ContractRun): string {
  return `${JSON.stringify(
    {
      tool: run.tool,
      suite: run.suite,
      ...(run.profile === undefined ? {} : { profile: run.profile }),
      seed: run.seed,
      startedAt: run.startedAt,
      durationMs: run.durationMs,
      verdict: verdictOf(run),
      ...(run.aborted === undefined ? {} : { aborted: run.aborted }),
      ...(run.couldNotTest === undefined ? {} : { couldNotTest: run.couldNotTest }),
      counts: countByStatus(run.checks),
      target: run.target,
      ...(run.overrides === undefined || run.overrides.length === 0 ? {} : { overrides: run.overrides }),
      checks: run.checks,
      ...(run.accepted === undefined ? {} : { acceptedFile: run.acceptedFile, accepted: run.accepted }),
    },
    null,
    2,
  )}\n`;
}
