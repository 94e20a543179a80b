import { vi } from "vitest";
import type { TestCase, TestModule, Vitest } from "vitest/node";
import type { CheckResult } from "../../../contracts/index.ts";
import { PROGRESS_MARK, ResultsReporter } from "../../../contracts/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const RESULT: CheckResult = {
  id: "token.issued",
  title: "Valid credentials give an access token",
  area: "token",
  level: "MUST",
  rule: "Endpoints §1 rule 1",
  status: "PASS",
  message: "200 with an access token",
  durationMs: 12,
  evidence: [],
};

/** A finished test case as vitest hands it over: its meta, and its errors when it had no result. */
function testCase(name: string, result: CheckResult | undefined, error?: string): TestCase {
  return {
    name,
    meta: () => (result === undefined ? {} : { eventHarnessResult: result }),
    result: () => ({ state: "failed", errors: error === undefined ? [] : [{ message: error }] }),
  } as unknown as TestCase;
}

function fakeVitest(): { vitest: Vitest; cancelled: string[] } {
  const cancelled: string[] = [];
  const vitest = {
    cancelCurrentRun: async (reason: string) => {
      cancelled.push(reason);
    },
  } as unknown as Vitest;
  return { vitest, cancelled };
}

describe("ResultsReporter", () => {
  it("collects each check's result from its meta and hands it on", () => {
    const seen: CheckResult[] = [];
    const reporter = new ResultsReporter(
      () => {},
      (result) => seen.push(result),
    );
    reporter.onTestCaseResult(testCase("token.issued", RESULT));
    expect(reporter.results).toEqual([RESULT]);
    expect(seen).toEqual([RESULT]);
    expect(reporter.failures).toEqual([]);
  });

  it("records a case without a result as a failure, with its first error or saying none was recorded", () => {
    const onResult = vi.fn();
    const reporter = new ResultsReporter(() => {}, onResult);
    reporter.onTestCaseResult(testCase("bearer.missing", undefined, "Cannot find module 'x'"));
    reporter.onTestCaseResult(testCase("bearer.garbage", undefined));
    expect(reporter.failures).toEqual([
      "bearer.missing: Cannot find module 'x'",
      "bearer.garbage: no result recorded",
    ]);
    expect(reporter.results).toEqual([]);
    expect(onResult).not.toHaveBeenCalled();
  });

  it("forwards marked console lines as progress, each line of a log that holds several, and nothing else", () => {
    const progress: Array<[string, string]> = [];
    const reporter = new ResultsReporter(
      (checkId, message) => progress.push([checkId, message]),
      () => {},
    );
    reporter.onUserConsoleLog({
      content: `${PROGRESS_MARK}lifetime.sliding\t1 use so far\nstray output\n${PROGRESS_MARK}lifetime.renewal\twaiting\n`,
    });
    expect(progress).toEqual([
      ["lifetime.sliding", "1 use so far"],
      ["lifetime.renewal", "waiting"],
    ]);
  });

  it("collects the modules' errors and the unhandled ones when the run ends", () => {
    const reporter = new ResultsReporter(
      () => {},
      () => {},
    );
    const module = {
      moduleId: "/suite/contract-suite.ts",
      errors: () => [{ message: "SyntaxError: Unexpected token" }],
    } as unknown as TestModule;
    reporter.onTestRunEnd([module], [{ message: "socket hang up" }, {}]);
    expect(reporter.failures).toEqual([
      "/suite/contract-suite.ts: SyntaxError: Unexpected token",
      "socket hang up",
      "unhandled error",
    ]);
  });

  it("cancels the run it was given, and one cancelled before vitest started as soon as it starts", () => {
    const started = fakeVitest();
    const onStart = vi.fn();
    const running = new ResultsReporter(
      () => {},
      () => {},
      onStart,
    );
    running.onInit(started.vitest);
    expect(onStart).toHaveBeenCalledWith(started.vitest);
    expect(started.cancelled).toEqual([]);
    running.cancel();
    expect(started.cancelled).toEqual(["keyboard-input"]);

    const early = new ResultsReporter(
      () => {},
      () => {},
    );
    early.cancel();
    const late = fakeVitest();
    early.onInit(late.vitest);
    expect(late.cancelled).toEqual(["keyboard-input"]);
  });
});
