import {
  PrerequisiteError,
  RedirectAnswerError,
  ServerFailureError,
  TransportError,
  UndecidableError,
} from "../../core/index.ts";
import { inertText } from "../../transport/index.ts";
import type { CheckDefinition, CheckLevel, CheckStatus } from "../checks/check.ts";
import { statusOf } from "../checks/check.ts";
import type { CheckResult } from "../checks/check-result.ts";
import type { Probe } from "../probe/probe.ts";

/**
 * Runs one check; a transport failure is ERROR ("could not decide"), never FAIL, and no exception escapes. A 5xx
 * where the contract allows none, or a 3xx (never followed), is a FAIL at MUST level, reported under the rule it
 * broke when the check's own level is lower.
 */
export async function executeCheck(check: CheckDefinition, probe: Probe): Promise<CheckResult> {
  const started = performance.now();
  let status: CheckStatus;
  let message: string;
  let level: CheckLevel = check.level;
  let rule = check.rule;
  try {
    const finding = await check.run(probe);
    status = statusOf(check.level, finding);
    message = finding.message;
  } catch (error) {
    if (error instanceof ServerFailureError || error instanceof RedirectAnswerError) {
      status = "FAIL";
      message = error.message;
      if (check.level !== "MUST") {
        level = "MUST";
        rule = error.rule;
      }
    } else if (error instanceof PrerequisiteError) {
      status = "SKIP";
      message = error.message;
    } else if (error instanceof TransportError || error instanceof UndecidableError) {
      status = "ERROR";
      message = `could not decide: ${error.message}`;
    } else {
      status = "ERROR";
      message = `harness error: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return {
    id: check.id,
    title: check.title,
    area: check.area,
    level,
    rule,
    status,
    // The harness's words are never redacted (a short secret would eat ids); quotes of the target were as they
    // were made (probe.quote, describeResponse). inertText only catches a quote made without them.
    message: inertText(message),
    durationMs: Math.round(performance.now() - started),
    evidence: probe.evidence,
    ...(probe.counterexample === undefined ? {} : { counterexample: probe.counterexample }),
    ...(probe.exploration === undefined ? {} : { exploration: probe.exploration }),
  };
}
