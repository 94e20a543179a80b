import type { Evidence } from "../probe/evidence.ts";
import type { CheckArea, CheckLevel, CheckStatus } from "./check.ts";
import type { Counterexample } from "./counterexample.ts";
import type { Exploration } from "./exploration.ts";

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
  /** A property-based check's failure, shrunk: the minimal input, the seed and the path that replay it. */
  readonly counterexample?: Counterexample;
  /** What a property-based check explored: per class of each field, inputs tried and the target's answers. */
  readonly exploration?: Exploration;
  /** Set when the run's ledger of accepted deviations names this check (see reporting/accepted). */
  readonly acceptance?: Acceptance;
}

/**
 * What an entry of the ledger did to a check: WAIVED it, expired, stale (the check passes), unobserved, or
 * not-applied (the entry is bound to another environment or target than the run's).
 */
export interface Acceptance {
  readonly state: "waived" | "expired" | "stale" | "unobserved" | "not-applied";
  readonly reason: string;
  readonly ticket?: string;
  readonly expires?: string;
}
