import { fileURLToPath } from "node:url";
import { startVitest } from "vitest/node";
import type { CheckResult, ContractSettings } from "../../contracts/index.ts";
import { ResultsReporter, SETTINGS_KEY, selectChecks } from "../../contracts/index.ts";
import { ContractRunError } from "../../core/index.ts";

/** Set by the CLI build (scripts/build/build-cli.ts) to the compiled suite; absent when running the sources. */
declare const EVENT_HARNESS_CONTRACT_SUITE: string | undefined;

const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SUITE =
  typeof EVENT_HARNESS_CONTRACT_SUITE === "string"
    ? EVENT_HARNESS_CONTRACT_SUITE
    : "cli/contract/contract-suite.ts";

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

export interface ContractRunHooks {
  readonly onProgress?: (checkId: string, message: string) => void;
  readonly onResult?: (result: CheckResult) => void;
  /** Aborted on Ctrl+C: the run stops, and every check without a result is ERROR. */
  readonly signal?: AbortSignal;
}

/** Runs the Pactum contract suite under vitest against the target in `settings`, returning one result per check. */
export async function runContract(
  settings: ContractSettings,
  hooks: ContractRunHooks = {},
): Promise<CheckResult[]> {
  const cliHandlers = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const reporter = new ResultsReporter(hooks.onProgress ?? (() => {}), hooks.onResult ?? (() => {}), () => {
    // Vitest exits the process on SIGINT/SIGTERM; the CLI owns them (they abort `hooks.signal`), so its handlers go.
    for (const [signal, own] of cliHandlers) {
      for (const listener of process.listeners(signal)) if (!own.has(listener)) process.off(signal, listener);
    }
  });
  // Vitest ignores a cancel that comes before its run begins: a run aborted already starts no check.
  if (hooks.signal?.aborted) return withEveryCheck(settings, reporter, true);
  const cancel = () => reporter.cancel();
  hooks.signal?.addEventListener("abort", cancel, { once: true });
  const previousExitCode = process.exitCode;
  const vitest = await startVitest(
    "test",
    [],
    {
      config: false,
      root: PROJECT_ROOT,
      include: [SUITE],
      // An installed harness lives under node_modules, which vitest excludes by default.
      exclude: [],
      watch: false,
      // A cache is for re-runs of a changing test tree; the suite is one file run once per process.
      cache: false,
      // The compiled suite's chunks are plain ES modules: Node loads them natively, vite need not transform them.
      server: { deps: { external: [/\/dist\/cli\//] } },
      reporters: [reporter],
      provide: { [SETTINGS_KEY]: settings },
      // One worker, no per-file isolation: the suite is one file and start-up time is most of a fast run.
      pool: "threads",
      maxWorkers: 1,
      isolate: false,
      // Console output must reach the reporter: it carries live progress; no other reporter prints it.
      silent: false,
    },
    { logLevel: "silent", clearScreen: false, server: { watch: null } },
  );
  // Vitest sets a failing exit code when a test throws; the harness decides its own exit code.
  process.exitCode = previousExitCode;
  hooks.signal?.removeEventListener("abort", cancel);
  await vitest?.close();
  if (vitest === undefined) throw new ContractRunError("vitest could not start the contract suite");
  const interrupted = hooks.signal?.aborted === true;
  if (!interrupted && reporter.failures.length > 0 && reporter.results.length === 0) {
    throw new ContractRunError(`the contract suite did not run: ${reporter.failures.join("; ")}`);
  }
  return withEveryCheck(settings, reporter, interrupted);
}

/** One result per selected check, in catalogue order: a check that left none is ERROR, so nothing goes missing. */
function withEveryCheck(
  settings: ContractSettings,
  reporter: ResultsReporter,
  interrupted: boolean,
): CheckResult[] {
  const byId = new Map(reporter.results.map((result) => [result.id, result]));
  return selectChecks(settings.profile, settings.only).map(
    (check) =>
      byId.get(check.id) ?? {
        id: check.id,
        title: check.title,
        area: check.area,
        level: check.level,
        rule: check.rule,
        status: "ERROR",
        message: interrupted
          ? "could not decide: the run was interrupted before this check finished"
          : `could not decide: the check left no result (${
              reporter.failures.find((failure) => failure.startsWith(`${check.id}:`)) ?? "it did not finish"
            })`,
        durationMs: 0,
        evidence: [],
      },
  );
}
