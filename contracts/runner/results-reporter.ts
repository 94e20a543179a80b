import type { Reporter, TestCase, TestModule, Vitest } from "vitest/node";
import type { CheckResult } from "../checks/check-result.ts";
import { parseProgress } from "./progress-channel.ts";

/** Collects each check's result from its task meta and forwards live progress; prints nothing itself. */
export class ResultsReporter implements Reporter {
  readonly results: CheckResult[] = [];
  /** Problems that kept checks from running at all (e.g. the suite failed to load). */
  readonly failures: string[] = [];

  constructor(
    private readonly onProgress: (checkId: string, message: string) => void,
    private readonly onResult: (result: CheckResult) => void,
    private readonly onStart: (vitest: Vitest) => void = () => {},
  ) {}

  #vitest: Vitest | undefined;
  #cancelled = false;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
    this.onStart(vitest);
    if (this.#cancelled) void vitest.cancelCurrentRun("keyboard-input");
  }

  /** Stops the run: the running check is cut short, the ones not started leave no result. */
  cancel(): void {
    this.#cancelled = true;
    void this.#vitest?.cancelCurrentRun("keyboard-input");
  }

  onUserConsoleLog(log: { content: string }): void {
    // vitest may hand over several console lines written in quick succession as one log.
    for (const line of log.content.split("\n")) {
      const progress = parseProgress(line);
      if (progress) this.onProgress(progress.checkId, progress.message);
    }
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.meta().eventHarnessResult;
    if (result === undefined) {
      const error = testCase.result().errors?.[0]?.message ?? "no result recorded";
      this.failures.push(`${testCase.name}: ${error}`);
      return;
    }
    this.results.push(result);
    this.onResult(result);
  }

  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<{ message?: string }>,
  ): void {
    for (const module of modules) {
      for (const error of module.errors()) this.failures.push(`${module.moduleId}: ${error.message}`);
    }
    for (const error of unhandledErrors) this.failures.push(error.message ?? "unhandled error");
  }
}
