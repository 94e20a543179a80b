import { describe, expect, it } from "vitest";
import { k6Ending } from "../../../cli/load/k6-ending.ts";
import type { K6RunResult } from "../../../k6-tooling/index.ts";

function result(overrides: Partial<K6RunResult>): K6RunResult {
  return {
    exitCode: 0,
    aborted: false,
    timedOut: false,
    loggedErrors: 0,
    insufficientVus: 0,
    cpu: undefined,
    ...overrides,
  };
}

const running = new AbortController().signal;

describe("k6Ending", () => {
  it("gives a verdict only to a k6 that finished its test: exit 0, or 99 for crossed thresholds", () => {
    expect(k6Ending(result({ exitCode: 0 }), running, 60)).toEqual({ kind: "finished" });
    expect(k6Ending(result({ exitCode: 99 }), running, 60)).toEqual({ kind: "finished" });
  });

  it("names k6's own refusals and script errors as undecided", () => {
    expect(k6Ending(result({ exitCode: 104 }), running, 60)).toEqual({
      kind: "undecided",
      reason: "k6 rejected the test configuration (exit 104)",
    });
    expect(k6Ending(result({ exitCode: 107 }), running, 60)).toEqual({
      kind: "undecided",
      reason: "the k6 script stopped with an error (exit 107)",
    });
    expect(k6Ending(result({ exitCode: 108 }), running, 60)).toEqual({
      kind: "undecided",
      reason: "the k6 script stopped with an error (exit 108)",
    });
  });

  it("leaves any other exit, or a signal, undecided with what k6 did", () => {
    expect(k6Ending(result({ exitCode: 1 }), running, 60)).toEqual({
      kind: "undecided",
      reason: "k6 exited with 1",
    });
    expect(k6Ending(result({ exitCode: undefined }), running, 60)).toEqual({
      kind: "undecided",
      reason: "k6 exited with a signal",
    });
  });

  it("calls a run the harness stopped aborted, in the words of the signal", () => {
    const controller = new AbortController();
    controller.abort("received SIGTERM");
    expect(k6Ending(result({ aborted: true, exitCode: undefined }), controller.signal, 60)).toEqual({
      kind: "aborted",
      reason: "interrupted (received SIGTERM)",
    });
  });

  it("calls a run the watchdog stopped aborted, with how long it was allowed, even if k6 then exited 0", () => {
    expect(k6Ending(result({ timedOut: true, exitCode: 0 }), running, 90)).toEqual({
      kind: "aborted",
      reason: "k6 did not finish within 1 min 30 s and was stopped",
    });
  });
});
