import type { Probe } from "../probe/probe.ts";

/**
 * A check's verdict. ERROR means "could not decide" and is never folded into FAIL. WAIVED is set only by the ledger
 * of accepted deviations: the check failed, and an entry in force accepts it.
 */
export type CheckStatus = "PASS" | "WARN" | "FAIL" | "ERROR" | "SKIP" | "WAIVED";
export const CHECK_STATUSES: readonly CheckStatus[] = ["PASS", "WARN", "FAIL", "ERROR", "SKIP", "WAIVED"];

/** MUST: the spec says so. SHOULD: an RFC or the production service says so. INFO: observed, no verdict. */
export type CheckLevel = "MUST" | "SHOULD" | "INFO";

export type CheckArea = "token" | "bearer" | "events" | "inputs" | "lifetime" | "rotation";
export const CHECK_AREAS: readonly CheckArea[] = [
  "token",
  "bearer",
  "events",
  "inputs",
  "lifetime",
  "rotation",
];
export const AREA_TITLES: Readonly<Record<CheckArea, string>> = {
  token: "Token issuance",
  bearer: "Bearer requirement",
  events: "Event creation",
  inputs: "Input handling (property-based)",
  lifetime: "Token lifetime (sliding expiry)",
  rotation: "Credential rotation",
};

/** `fast` checks run in every profile; `full` checks (they wait on expires_in) only in the full profile. */
export type Profile = "fast" | "full";
export const PROFILES: readonly Profile[] = ["fast", "full"];

/** What a check function concluded about the target; the check's level turns it into a status. */
export type Finding =
  | { readonly outcome: "holds"; readonly message: string }
  | { readonly outcome: "broken"; readonly message: string }
  | { readonly outcome: "skipped"; readonly message: string }
  | { readonly outcome: "observed"; readonly message: string }
  | { readonly outcome: "caveat"; readonly message: string };

export const holds = (message: string): Finding => ({ outcome: "holds", message });
export const broken = (message: string): Finding => ({ outcome: "broken", message });
export const skipped = (message: string): Finding => ({ outcome: "skipped", message });
export const observed = (message: string): Finding => ({ outcome: "observed", message });
/** Neither holds nor broken: the target made a choice the expectation did not foresee, named in the message. */
export const caveat = (message: string): Finding => ({ outcome: "caveat", message });

export interface CheckDefinition {
  /** Stable id, `<area>.<name>`, used by --only and in reports. */
  readonly id: string;
  readonly title: string;
  readonly area: CheckArea;
  readonly level: CheckLevel;
  /** The clause enforced, e.g. "Authentication rule 6" or "RFC 6750 §3". */
  readonly rule: string;
  readonly profile: Profile;
  run(probe: Probe): Promise<Finding>;
}

export function defineCheck(check: CheckDefinition): CheckDefinition {
  return check;
}

/** A failed SHOULD is a warning and an INFO never fails: the level decides, not the check function. */
export function statusOf(level: CheckLevel, finding: Finding): CheckStatus {
  switch (finding.outcome) {
    case "holds":
    case "observed":
      return "PASS";
    case "skipped":
      return "SKIP";
    case "broken":
      return level === "MUST" ? "FAIL" : level === "SHOULD" ? "WARN" : "PASS";
    case "caveat":
      return level === "INFO" ? "PASS" : "WARN";
  }
}
