import type { CheckResult } from "../../contracts/index.ts";

/** A MUST check's result in the token area with no evidence, so a report test spells out only what it reads. */
export function checkResult(
  id: string,
  status: CheckResult["status"],
  extra: Partial<CheckResult> = {},
): CheckResult {
  return {
    id,
    title: id,
    area: "token",
    level: "MUST",
    rule: "r",
    status,
    message: "",
    durationMs: 1,
    evidence: [],
    ...extra,
  };
}
