import { applyToThresholds } from "../accepted/apply-to-thresholds.ts";
import { ledgerNote, staleWaiverClause, staleWaiverWarning } from "../accepted/describe-outcomes.ts";
import type { EntryOutcome } from "../accepted/entry-outcome.ts";
import { unobserved } from "../accepted/entry-outcome.ts";
import { isBaselineGateId, isExpiryMetric } from "../accepted/gate-ids.ts";
import type { Ledger } from "../accepted/ledger.ts";
import { countNoun } from "../index.ts";
import type { AnsweredCounts } from "./answered-failures.ts";
import { answeredClause, brokenByAnswers } from "./answered-failures.ts";
import type { GeneratorVerdict } from "./generator-limit.ts";
import { generatorClause, generatorTooClause } from "./generator-limit.ts";
import type { ThresholdResult } from "./summary-data.ts";

/**
 * How a load run ended, as the harness saw it: k6 finished the test, was stopped before its end (Ctrl+C, SIGTERM,
 * the watchdog), or ended in a way that proves nothing (a script error, no summary).
 */
export type RunEnding =
  | { readonly kind: "finished" }
  | { readonly kind: "aborted"; readonly reason: string }
  | { readonly kind: "undecided"; readonly reason: string };

export const FINISHED: RunEnding = { kind: "finished" };

export type LoadOutcome = "passed" | "failed" | "aborted" | "undecided";

/** The one verdict of a load run, which every report and the exit code read. */
export interface LoadResult {
  readonly outcome: LoadOutcome;
  /** Why a run that did not finish has no pass or fail, or why a finished one failed beyond its thresholds. */
  readonly reason: string | undefined;
  /** Failed thresholds that fail the run: no entry of the ledger in force accepts them. */
  readonly failedThresholds: readonly ThresholdResult[];
  /** Failed thresholds the ledger accepts: WAIVED, never shown as passed. */
  readonly waivedThresholds: readonly ThresholdResult[];
  /** What became of each load gate entry of the ledger (empty without one). */
  readonly accepted: readonly EntryOutcome[];
  /** Gated figures a baseline comparison found REGRESSED (`events.p95 window 240–300 s`): each fails the run. */
  readonly regressed: readonly string[];
  /** The baseline comparison, when one ran: its clause for the verdict line and whether it fails the run. */
  readonly baseline: { readonly line: string; readonly fails: boolean } | undefined;
  /** The ledger the run was judged with, as the user named it. */
  readonly ledgerFile?: string;
  /** A capacity search's figure in one clause, which the verdict line gives instead of the thresholds'. */
  readonly capacity?: string | undefined;
}

/** What a baseline comparison adds to a run's verdict. */
export interface BaselineVerdict {
  /** The figures found REGRESSED (`events.p95 window 240–300 s`). */
  readonly regressed: readonly string[];
  /** Whether the comparison fails the run: a regression, or an inconclusive one with `--fail-on inconclusive`. */
  readonly fails: boolean;
  /** What became of each baseline entry of the ledger. */
  readonly accepted: readonly EntryOutcome[];
  /** The comparison in one clause, for the verdict line: `baseline UNCHANGED (token latency not judged: 6 samples)`. */
  readonly line: string;
}

/** What a finished run tells the verdict besides its thresholds. */
export interface RunFacts {
  readonly eventsAccepted: number;
  /** Events sent and not accepted. */
  readonly eventsRejected: number;
  /** Whether the run put sliding expiry to the test; its gates' entries are unobserved otherwise. */
  readonly slidingExercised: boolean;
  /** Whether the load generator, not the target, limited the run. */
  readonly generator?: GeneratorVerdict;
  /** Rejections the target never answered (no answer, no token): only these can be the generator's doing. */
  readonly unansweredRejections?: number;
}

/**
 * Thresholds whose failure proves a contract violation whatever the load generator did: a token refused in use or
 * accepted past its idle lifetime, a redirect. The others (latency, errors, dropped iterations) measure the load.
 */
function provesViolation(metric: string): boolean {
  return isExpiryMetric(metric) || metric === "redirects" || metric.startsWith("redirects{");
}

/** How each outcome is written in reports. */
export const OUTCOME_TITLE = {
  passed: "PASSED",
  failed: "FAILED",
  aborted: "ABORTED",
  undecided: "COULD NOT DECIDE",
} as const satisfies Record<LoadOutcome, string>;

/**
 * Decides a load run's verdict: only a finished run passes or fails on its thresholds; a stopped one is aborted
 * whatever its partial numbers say. `thresholds` is undefined when k6 left no end-of-test summary.
 */
export function loadResult(
  thresholds: readonly ThresholdResult[] | undefined,
  ending: RunEnding,
  ledger?: Ledger,
  facts?: RunFacts,
  baseline?: BaselineVerdict,
): LoadResult {
  const judged = ending.kind === "finished" ? thresholds : undefined;
  const accepted = applyToThresholds(judged, ledger, facts?.slidingExercised ?? true);
  const regressed = baseline?.regressed ?? [];
  const base = {
    failedThresholds: ending.kind === "finished" ? accepted.failed : (thresholds ?? []).filter((t) => !t.ok),
    waivedThresholds: accepted.waived,
    accepted: [...accepted.outcomes, ...(baseline?.accepted ?? baselineUnobserved(ledger))],
    regressed,
    baseline: baseline === undefined ? undefined : { line: baseline.line, fails: baseline.fails },
    ...(ledger === undefined ? {} : { ledgerFile: ledger.file }),
  };
  if (ending.kind !== "finished") return { outcome: ending.kind, reason: ending.reason, ...base };
  if (thresholds === undefined) {
    return { outcome: "undecided", reason: "k6 wrote no end-of-test summary", ...base };
  }
  // A run the generator limited measured k6, not the target: only a contract violation, or failures the target
  // answered, still prove something.
  const generator = facts?.generator;
  if (generator?.limited === true) {
    const clause = generatorClause(generator);
    const counts: AnsweredCounts = {
      accepted: facts?.eventsAccepted ?? 0,
      rejected: facts?.eventsRejected ?? 0,
      // Without the breakdown every rejection is taken for one the target never answered.
      unanswered: facts?.unansweredRejections ?? facts?.eventsRejected ?? 0,
    };
    const answered = brokenByAnswers(base.failedThresholds, counts);
    if (answered !== undefined) {
      return {
        outcome: "failed",
        reason: `${answeredClause(answered, counts)}; ${generatorTooClause(generator)}`,
        ...base,
      };
    }
    return base.failedThresholds.some((t) => provesViolation(t.metric))
      ? { outcome: "failed", reason: generatorTooClause(generator), ...base }
      : { outcome: "undecided", reason: clause, ...base };
  }
  const failed = base.failedThresholds.length > 0 || regressed.length > 0 || baseline?.fails === true;
  // Whatever is waived, a run the target accepted nothing from has not passed.
  if (!failed && facts !== undefined && facts.eventsAccepted === 0) {
    return facts.eventsRejected > 0
      ? { outcome: "failed", reason: "no event was accepted", ...base }
      : { outcome: "undecided", reason: "no event was sent", ...base };
  }
  return { outcome: failed ? "failed" : "passed", reason: undefined, ...base };
}

/** Without a comparison, every baseline entry of the ledger is unobserved. */
function baselineUnobserved(ledger: Ledger | undefined): EntryOutcome[] {
  return (ledger?.entries ?? [])
    .filter((entry) => isBaselineGateId(entry.id))
    .map((entry) => unobserved(entry, "no baseline was compared"));
}

/** How many crossed thresholds a verdict line names before it says how many more there are. */
const NAMED_THRESHOLDS = 5;

/** `token_expiries{kind:unexpected} count==0 (count=10), …`: the thresholds crossed, as the reports write them. */
export function namedThresholds(thresholds: readonly ThresholdResult[]): string {
  const named = thresholds
    .slice(0, NAMED_THRESHOLDS)
    .map((t) => `${t.metric} ${t.expression}${t.observed ? ` (${t.observed})` : ""}`);
  const more = thresholds.length - NAMED_THRESHOLDS;
  return more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
}

/**
 * The verdict in one line that reconciles what gated the run, what failed first: `PASSED: thresholds held; baseline
 * UNCHANGED (token latency not judged: 6 samples)`, `FAILED: 1 threshold crossed: events_failed rate<0.01
 * (rate=2%); baseline UNCHANGED`, `FAILED: baseline REGRESSED (events p95 +8.10 ms); thresholds held`, `ABORTED:
 * interrupted (received SIGINT)`; the ledger's entries that ask for attention are named at the end.
 */
export function describeResult(result: LoadResult): string {
  const title = OUTCOME_TITLE[result.outcome];
  if (result.outcome === "aborted" || result.outcome === "undecided") {
    return result.reason === undefined ? title : `${title}: ${result.reason}`;
  }
  const failed = result.failedThresholds.length;
  const waived = result.waivedThresholds.length;
  const note = ledgerNote(result.accepted);
  const stale = staleWaiverClause(result.accepted);
  const thresholds = `${failed > 0 ? `${countNoun(failed, "threshold")} crossed: ${namedThresholds(result.failedThresholds)}` : "thresholds held"}${waived > 0 ? `, ${waived} WAIVED` : ""}`;
  const baseline = result.baseline;
  const failing = [
    ...(result.reason === undefined ? [] : [result.reason]),
    // A capacity search is judged by its figure, which stands where the thresholds' clause would.
    ...(result.capacity === undefined && failed > 0 ? [thresholds] : []),
    ...(baseline?.fails === true ? [baseline.line] : []),
  ];
  const holding = [
    ...(result.capacity === undefined ? (failed > 0 ? [] : [thresholds]) : [result.capacity]),
    ...(baseline === undefined || baseline.fails ? [] : [baseline.line]),
  ];
  const clauses = [
    ...failing,
    ...holding,
    ...(note === undefined ? [] : [note]),
    ...(stale === undefined ? [] : [stale]),
  ];
  return `${title}: ${clauses.join("; ")}`;
}

/** How a threshold reads in reports: a failed one the ledger accepts is WAIVED, never a pass. */
export type ThresholdStatus = "PASS" | "FAIL" | "WAIVED";

export function thresholdStatus(threshold: ThresholdResult, result: LoadResult): ThresholdStatus {
  if (threshold.ok) return "PASS";
  const waived = result.waivedThresholds.some(
    (t) => t.metric === threshold.metric && t.expression === threshold.expression,
  );
  return waived ? "WAIVED" : "FAIL";
}

/** The loud warning of a stale waiver of a load gate or a baseline figure, when there is one. */
export function staleWarning(result: LoadResult): string[] {
  const warning = staleWaiverWarning(result.accepted, result.ledgerFile ?? "the ledger");
  return warning === undefined ? [] : [warning];
}
