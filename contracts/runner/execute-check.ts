import type { CheckDefinition, CheckStatus } from "../checks/check.ts";
import { statusOf } from "../checks/check.ts";
import type { CheckResult } from "../checks/check-result.ts";
import { PrerequisiteError } from "../probe/prerequisite-error.ts";
import type { Probe } from "../probe/probe.ts";
import { TransportError } from "../probe/transport-error.ts";

/** Runs one check; a transport failure is ERROR ("could not decide"), never FAIL, and no exception escapes. */
export async function executeCheck(check: CheckDefinition, probe: Probe): Promise<CheckResult> {
  const started = performance.now();
  let status: CheckStatus;
  let message: string;
  try {
    const finding = await check.run(probe);
    status = statusOf(check.level, finding);
    message = finding.message;
  } catch (error) {
    if (error instanceof PrerequisiteError) {
      status = "SKIP";
      message = error.message;
    } else if (error instanceof TransportError) {
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
    level: check.level,
    rule: check.rule,
    status,
    message: probe.redactor.redact(message),
    durationMs: Math.round(performance.now() - started),
    evidence: probe.evidence,
  };
}
