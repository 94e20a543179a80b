import { describe, expect, it } from "vitest";
import { EXIT_CODE_OF_ERROR, ExitCode, exitCodeOf, runExitCode } from "../../cli/exit-codes.ts";
import {
  BundleTooLargeError,
  CannotRunError,
  ConnectionError,
  ContractRunError,
  EnvError,
  PrerequisiteError,
  RedirectAnswerError,
  ResponseTooLargeError,
  RotationUnconfirmedError,
  ServerFailureError,
  TransportError,
  UndecidableError,
  UsageError,
} from "../../core/index.ts";

// The codes as shipped (CONTRIBUTING.md, "Errors"): a change here breaks users who branch on them.
const SHIPPED: ReadonlyArray<readonly [Error & { code: string }, string, number]> = [
  [new UsageError("unknown-command", "x"), "unknown-command", 2],
  [new UsageError("unknown-option", "x"), "unknown-option", 2],
  [new UsageError("missing-argument", "x"), "missing-argument", 2],
  [new UsageError("invalid-value", "x"), "invalid-value", 2],
  [new UsageError("invalid-config", "x"), "invalid-config", 2],
  [new UsageError("missing-tool", "x"), "missing-tool", 2],
  [new UsageError("unwritable-path", "x"), "unwritable-path", 2],
  [new CannotRunError("x"), "cannot-run", 3],
  [new RotationUnconfirmedError("x"), "rotation-unconfirmed", 3],
  [new ContractRunError("x"), "contract-run-failed", 3],
  [new BundleTooLargeError("x"), "bundle-too-large", 3],
  [new EnvError("x"), "env-invalid", 3],
  [new ConnectionError("x", "CA_FILE"), "connection-failed", 3],
  [new ResponseTooLargeError(1), "response-too-large", 3],
  [new TransportError("x", "TIMEOUT"), "transport-failed", 3],
  [new ServerFailureError("x", "R1"), "server-failure", 3],
  [new RedirectAnswerError("x", "R1"), "redirect-answer", 3],
  [new UndecidableError("x"), "undecidable", 3],
  [new PrerequisiteError("x"), "prerequisite-failed", 3],
];

describe("exitCodeOf", () => {
  it.each(SHIPPED)("%s carries the code %s and ends a command with %i", (error, code, exit) => {
    expect(error.code).toBe(code);
    expect(exitCodeOf(error)).toBe(exit);
  });

  it("maps every code, and no code the table above does not ship", () => {
    expect(Object.keys(EXIT_CODE_OF_ERROR).sort()).toEqual(SHIPPED.map(([, code]) => code).sort());
  });

  it("anything that is not a harness error is an internal error: could not decide", () => {
    expect(exitCodeOf(new Error("kaput"))).toBe(ExitCode.undecided);
    expect(exitCodeOf(Object.assign(new Error("x"), { code: "invalid-value" }))).toBe(ExitCode.undecided);
    expect(exitCodeOf("a string")).toBe(ExitCode.undecided);
  });
});

describe("runExitCode", () => {
  it("ends a run failed 1, undecided 3, passed 0, and an interrupted (aborted) one 3", () => {
    expect([runExitCode("passed"), runExitCode("failed"), runExitCode("undecided")]).toEqual([0, 1, 3]);
    expect(runExitCode("aborted")).toBe(3);
  });
});
