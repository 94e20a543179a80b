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
