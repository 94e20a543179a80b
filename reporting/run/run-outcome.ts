/**
 * One word for the whole run: an interrupted run is aborted; otherwise failed beats undecided beats passed, so an
 * error never hides a failure.
 */
export type RunVerdict = "passed" | "failed" | "undecided" | "aborted";
/** A part that never ran (the run was interrupted before it) is `skipped`; the run is then aborted. */
export type PartVerdict = RunVerdict | "skipped";
export type PartKind = "contract" | "load" | "rotation";

/** What the run command knows about one part once it has run; written to run.json. */
export interface PartOutcome {
  /** Also the part's folder under the run directory: `contract`, `load-sustained`, `rotation`, … */
  readonly id: string;
  readonly kind: PartKind;
  readonly title: string;
  /** The command line that reproduces the part (target options and secrets left out). */
  readonly command: string;
  readonly verdict: PartVerdict;
  readonly exitCode: number | null;
  readonly startedAt: string;
  readonly durationMs: number;
  /** Why the harness could not decide or did not run the part, in its own words. */
  readonly note?: string;
  /** What gated the part, as its reports say it: `thresholds held; baseline UNCHANGED (…)`, `31 PASS, 1 WAIVED`. */
  readonly gate?: string;
}

/** The harness that ran: its version and the commit it was packed (or runs) from; `commit` null when unknown. */
export interface ToolInfo {
  readonly name: string;
  readonly version: string;
  readonly commit?: string | null;
  /** Tracked files differed from that commit. */
  readonly modified?: boolean;
}

export interface RunOutcome {
  readonly tool: ToolInfo;
  readonly runId: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly verdict: RunVerdict;
  /**
   * The verdict in one line with what gated it: `PASSED — 2 of 2 parts passed · load-sustained: thresholds held;
   * baseline UNCHANGED (token latency not judged: 6 samples)`.
   */
  readonly verdictLine?: string;
  /** Why the run was stopped before its end (`interrupted (received SIGTERM)`); absent when it ran to the end. */
  readonly aborted?: string;
  /** Why no part ran: the preflight's diagnosis of a target that could not be tested (the run is undecided). */
  readonly couldNotTest?: string;
  /** URLs only for a named target: the embedded sandbox is started by each part on a port of its own. */
  readonly target: {
    readonly embedded: boolean;
    readonly tokenUrl?: string;
    /** The issuer whose metadata named the token endpoint (--issuer). */
    readonly issuer?: string;
    /** The token endpoint's origin, when the issuer's metadata put it on another origin than the issuer's. */
    readonly tokenEndpointOrigin?: string;
    readonly baseUrl?: string;
    readonly clientAuth?: string;
    /** TLS certificates were not verified (--insecure): the reports say so at the top. */
    readonly insecure?: boolean;
    /** The config file (as the user would type its path) and environment the settings came from, when one was used. */
    readonly config?: { readonly file: string; readonly environment: string };
  };
  /** What the user set over the harness's own choice or the config file, names only (`--token-param NAME`). */
  readonly overrides?: readonly string[];
  readonly parts: readonly PartOutcome[];
}

/** How each verdict is written at the margin of the console and in run.json's verdict line. */
export const RUN_VERDICT_TITLE = {
  passed: "PASSED",
  failed: "FAILED",
  undecided: "COULD NOT DECIDE",
  aborted: "ABORTED",
} as const satisfies Record<RunVerdict, string>;

/**
 * The verdict of a part from its command's exit code (0 passed, 1 failed, anything else undecided), or aborted when
 * the run was interrupted while it ran.
 */
export function partVerdictOf(exitCode: number, interrupted = false): RunVerdict {
  if (interrupted) return "aborted";
  if (exitCode === 0) return "passed";
  if (exitCode === 1) return "failed";
  return "undecided";
}

/** The one place the run's verdict is decided; an interrupted run is aborted whatever its parts did. */
export function combineVerdicts(
  parts: readonly { readonly verdict: PartVerdict }[],
  interrupted = false,
): RunVerdict {
  if (interrupted || parts.some((part) => part.verdict === "aborted")) return "aborted";
  if (parts.some((part) => part.verdict === "failed")) return "failed";
  if (parts.length === 0 || parts.some((part) => part.verdict !== "passed")) return "undecided";
  return "passed";
}
