// The harness's errors, one base class and stable codes (after undici's lib/core/errors.js). A code is documented
// in CONTRIBUTING.md and never changed once shipped: the CLI maps it to an exit code, and users may branch on it.
// No Node or k6 APIs: the k6 scenarios throw EnvError from here.

import { formatBytes } from "./format-bytes.ts";

/** Why a command could not start: the user's words or configuration, never the target's behaviour. */
export type UsageErrorCode =
  | "unknown-command"
  | "unknown-option"
  | "missing-argument"
  | "invalid-value"
  | "invalid-config"
  | "missing-tool"
  | "unwritable-path";

/** Every code a harness error carries. */
export type ErrorCode =
  | UsageErrorCode
  | "cannot-run"
  | "rotation-unconfirmed"
  | "contract-run-failed"
  | "bundle-too-large"
  | "env-invalid"
  | "connection-failed"
  | "response-too-large"
  | "transport-failed"
  | "server-failure"
  | "redirect-answer"
  | "undecidable"
  | "prerequisite-failed";

/** The base of every error the harness throws on purpose; anything else reaching the CLI is an internal error. */
export abstract class HarnessError extends Error {
  abstract readonly code: ErrorCode;
}

/** The one error type a command throws for a usage or configuration problem (exit 2). */
export class UsageError extends HarnessError {
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

/** Why a run cannot start although the command line was fine: the target's fault or the network's (exit 3). */
export class CannotRunError extends HarnessError {
  override readonly name = "CannotRunError";
  readonly code = "cannot-run";
}

/** Why a secret rotation could not be made or confirmed although the command line was fine (exit 3). */
export class RotationUnconfirmedError extends HarnessError {
  override readonly name = "RotationUnconfirmedError";
  readonly code = "rotation-unconfirmed";
}

/** Raised when the contract suite itself could not run (not a verdict on the target). */
export class ContractRunError extends HarnessError {
  override readonly name = "ContractRunError";
  readonly code = "contract-run-failed";
}

/** A bundled k6 scenario is larger than the goal every VU reads. */
export class BundleTooLargeError extends HarnessError {
  override readonly name = "BundleTooLargeError";
  readonly code = "bundle-too-large";
}

/** A missing or malformed k6 environment variable; the message names it so a standalone k6 user can fix it. */
export class EnvError extends HarnessError {
  override readonly name = "EnvError";
  readonly code = "env-invalid";
}

/** A request could not be made for a reason of the way to the target (CA file, proxy, TLS), said plainly. */
export class ConnectionError extends HarnessError {
  override readonly name = "ConnectionError";
  readonly code = "connection-failed";
  constructor(
    message: string,
    /** What failed underneath: Node's or OpenSSL's code (CERT_HAS_EXPIRED …), or the harness's (CA_FILE, PROXY …). */
    readonly reason: string,
  ) {
    super(message);
  }
}

/**
 * A response whose body passed the cap, in bytes or in the shape of its JSON: the exchange was ended there, so the
 * target's answer is unknown.
 */
export class ResponseTooLargeError extends HarnessError {
  override readonly name = "ResponseTooLargeError";
  readonly code = "response-too-large";
  constructor(
    readonly limitBytes: number,
    message = `response body exceeded ${formatBytes(limitBytes)}`,
  ) {
    super(message);
  }
}

/** The target could not be asked (refused, reset, timed out): a check that meets one is ERROR, never FAIL. */
export class TransportError extends HarnessError {
  override readonly name = "TransportError";
  readonly code = "transport-failed";
  constructor(
    message: string,
    /** How the exchange failed: ECONNREFUSED, TIMEOUT, DEADLINE, TOO_LARGE, UNANSWERED, UNKNOWN … */
    readonly reason: string,
  ) {
    super(message);
  }
}

/** A 5xx where the contract allows none: the check FAILs as a MUST, whatever its own level (RFC 9110 §15.6). */
export class ServerFailureError extends HarnessError {
  override readonly name = "ServerFailureError";
  readonly code = "server-failure";
  constructor(
    message: string,
    /** The MUST rule the answer broke. */
    readonly rule: string,
  ) {
    super(message);
  }
}

/**
 * A 3xx where the contract expects the endpoint to answer itself: the check FAILs as a MUST, whatever its level.
 * The harness never follows it, so the request's credentials stay with the configured URL.
 */
export class RedirectAnswerError extends HarnessError {
  override readonly name = "RedirectAnswerError";
  readonly code = "redirect-answer";
  constructor(
    message: string,
    /** The MUST rule the answer broke. */
    readonly rule: string,
  ) {
    super(message);
  }
}

/**
 * The answers came, but too late to tell a broken rule from a slow machine, or carrying a token too long to hide in
 * a report: the check is ERROR, never FAIL.
 */
export class UndecidableError extends HarnessError {
  override readonly name = "UndecidableError";
  readonly code = "undecidable";
}

/** A check could not reach the behaviour it tests because an earlier step failed; the check is SKIPped, naming why. */
export class PrerequisiteError extends HarnessError {
  override readonly name = "PrerequisiteError";
  readonly code = "prerequisite-failed";
}
