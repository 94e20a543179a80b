/** One word for the whole run: failed beats undecided beats passed, so an error never hides a failure. */
export type RunVerdict = "passed" | "failed" | "undecided";
/** A part that never ran (the run was interrupted before it) is `skipped`, and makes the run undecided. */
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
}

export interface RunOutcome {
  readonly tool: { readonly name: string; readonly version: string };
  readonly runId: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly verdict: RunVerdict;
  /** URLs only for a named target: the embedded sandbox is started by each part on a port of its own. */
  readonly target: {
    readonly embedded: boolean;
    readonly tokenUrl?: string;
    readonly baseUrl?: string;
    readonly clientAuth?: string;
    /** TLS certificates were not verified (--insecure): the reports say so at the top. */
    readonly insecure?: boolean;
  };
  readonly parts: readonly PartOutcome[];
}

/** The verdict of a part from its command's exit code (0 passed, 1 failed, anything else undecided). */
export function partVerdictOf(exitCode: number): RunVerdict {
  if (exitCode === 0) return "passed";
  if (exitCode === 1) return "failed";
  return "undecided";
}

export function combineVerdicts(parts: readonly { readonly verdict: PartVerdict }[]): RunVerdict {
  if (parts.some((part) => part.verdict === "failed")) return "failed";
  if (parts.length === 0 || parts.some((part) => part.verdict !== "passed")) return "undecided";
  return "passed";
}

/** The run's exit code: 1 failed, 3 undecided, 0 passed. */
export function exitCodeOf(verdict: RunVerdict): 0 | 1 | 3 {
  return verdict === "failed" ? 1 : verdict === "undecided" ? 3 : 0;
}
