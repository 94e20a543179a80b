import type { ErrorCode } from "../core/index.ts";
import { HarnessError } from "../core/index.ts";
import type { LoadResult } from "../reporting/load/index.ts";
import type { RunVerdict } from "../reporting/run/index.ts";

/** Process exit codes, shared by every command so CI can branch on them. */
export const ExitCode = {
  /** Everything ran and nothing failed (warnings allowed). */
  ok: 0,
  /** At least one check or threshold failed: the target broke its contract. */
  failed: 1,
  /** The command line or configuration is wrong; nothing was tested. */
  usage: 2,
  /** The harness could not decide (target unreachable, timeouts, internal error) and nothing failed. */
  undecided: 3,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The exit code each harness error ends a command with: the one place an error becomes an exit code. A code the
 * CLI catches nowhere else still lands here, so an escaped check signal is "could not decide", never a FAIL.
 */
export const EXIT_CODE_OF_ERROR: Readonly<Record<ErrorCode, ExitCode>> = {
  "unknown-command": ExitCode.usage,
  "unknown-option": ExitCode.usage,
  "missing-argument": ExitCode.usage,
  "invalid-value": ExitCode.usage,
  "invalid-config": ExitCode.usage,
  "missing-tool": ExitCode.usage,
  "unwritable-path": ExitCode.usage,
  "cannot-run": ExitCode.undecided,
  "rotation-unconfirmed": ExitCode.undecided,
  "contract-run-failed": ExitCode.undecided,
  "bundle-too-large": ExitCode.undecided,
  "env-invalid": ExitCode.undecided,
  "connection-failed": ExitCode.undecided,
  "response-too-large": ExitCode.undecided,
  "transport-failed": ExitCode.undecided,
  "server-failure": ExitCode.undecided,
  "redirect-answer": ExitCode.undecided,
  undecidable: ExitCode.undecided,
  "prerequisite-failed": ExitCode.undecided,
};

/** The exit code `error` ends a command with; anything but a harness error is an internal error (3). */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof HarnessError ? EXIT_CODE_OF_ERROR[error.code] : ExitCode.undecided;
}

/** The exit code of a load run: read from its one verdict, never from k6's exit code alone. */
export function loadExitCode(result: LoadResult): ExitCode {
  switch (result.outcome) {
    case "passed":
      return ExitCode.ok;
    case "failed":
      return ExitCode.failed;
    default:
      return ExitCode.undecided;
  }
}

/** The run's exit code: 1 failed, 3 undecided or aborted, 0 passed. */
export function runExitCode(verdict: RunVerdict): ExitCode {
  return verdict === "failed" ? ExitCode.failed : verdict === "passed" ? ExitCode.ok : ExitCode.undecided;
}
