/** Why a command could not start: the user's words or configuration, never the target's behaviour. */
export type UsageErrorCode =
  | "unknown-command"
  | "unknown-option"
  | "missing-argument"
  | "invalid-value"
  | "invalid-config"
  | "missing-tool"
  | "unwritable-path";

/** The one error type a command throws for a usage or configuration problem; `main` turns it into exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    readonly code: UsageErrorCode,
    message: string,
    /** The command whose --help the user should read, when there is one. */
    readonly command?: string,
  ) {
    super(message);
  }
}
