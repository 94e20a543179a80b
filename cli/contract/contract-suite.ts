// The contract suite as vitest runs it: one test per selected check, results handed to the reporter via task meta.
import { afterAll, beforeAll, describe, inject, test } from "vitest";
import type { CheckDefinition, CheckResult, FuzzSettings } from "../../contracts/index.ts";
import {
  AREA_TITLES,
  CHECK_AREAS,
  executeCheck,
  FUZZ_DEFAULTS,
  MIN_SHRINK_MS,
  PROGRESS_MARK,
  PROPERTY_CHECK_IDS,
  Probe,
  SETTINGS_KEY,
  selectChecks,
  UnansweredEndpoints,
} from "../../contracts/index.ts";
import { createEventGenerator, createInputSpace, INVALID_VARIANTS } from "../../generators/index.ts";
import {
  defaultRunBudgetMs,
  MAX_STRETCHED_RUN_MS,
  RunDeadline,
  timerDelay,
} from "../../transport/deadline/index.ts";
import type { Target } from "../../transport/index.ts";
import { Secret, targetRedactor } from "../../transport/index.ts";

const settings = inject(SETTINGS_KEY);
const secret = settings.target.clientSecret;
const target: Target = { ...settings.target, clientSecret: new Secret(secret) };
const redactor = targetRedactor(target);
const generator = createEventGenerator({
  seed: settings.seed,
  runId: settings.runId,
  referencePrefix: "eah-contract-",
  ...(target.channelId === undefined ? {} : { channels: [target.channelId] }),
});
const checks = selectChecks(settings.profile, settings.only);
const channels = target.channelId === undefined ? {} : { channels: [target.channelId] };
const inputSpace = createInputSpace(channels);
// The property-based checks share the stage's time budget equally.
const fuzzOptions = settings.fuzz ?? FUZZ_DEFAULTS[settings.profile];
const propertyChecks = checks.filter((check) => PROPERTY_CHECK_IDS.includes(check.id)).length;
const timeLimitMs = Math.floor(fuzzOptions.timeBudgetMs / Math.max(1, propertyChecks));
const fuzz: FuzzSettings = {
  seed: settings.seed,
  runs: fuzzOptions.runs,
  timeLimitMs,
  shrinkLimitMs: Math.max(timeLimitMs, MIN_SHRINK_MS),
  runId: settings.runId,
  // The full profile sends every boundary of every class; the fast profile each class's first.
  coverAll: settings.profile === "full",
  ...(fuzzOptions.replayPath === undefined ? {} : { replayPath: fuzzOptions.replayPath }),
};

const deadline = new RunDeadline(
  settings.deadline ?? {
    startedAt: Date.now(),
    budgetMs: defaultRunBudgetMs(target.timeoutMs),
    fixed: false,
  },
);
const unanswered = new UnansweredEndpoints();
afterAll(() => deadline.dispose());

/**
 * Vitest's own timeouts are only a backstop: the run's deadline ends every check first, a stretched one
 * (sliding-expiry probes) at MAX_STRETCHED_RUN_MS at the latest. Vitest's timers overflow like Node's.
 */
const BACKSTOP_MS = 60_000;
const FAST_TIMEOUT_MS = timerDelay(deadline.budgetMs + BACKSTOP_MS);
const LIFETIME_TIMEOUT_MS = timerDelay(Math.max(MAX_STRETCHED_RUN_MS, deadline.budgetMs) + BACKSTOP_MS);

function run(check: CheckDefinition): Promise<CheckResult> {
  const probe = new Probe({
    target,
    redactor,
    nextEvent: () => generator.next(),
    eventBreakers: INVALID_VARIANTS,
    // Workers reach the CLI's terminal only through the console, which the results reporter listens to.
    progress: (message) => console.error(`${PROGRESS_MARK}${check.id}\t${message}`),
    signal: deadline.signal,
    unanswered,
    reserveUntil: (at, needed) => deadline.reserve(at, needed),
    ...(settings.knownLifetime === undefined ? {} : { knownLifetime: settings.knownLifetime }),
    inputSpace,
    fuzz,
  });
  return executeCheck(check, probe);
}

// Lifetime probes wait about expires_in each: start them all at once, alongside the fast checks, so the
// whole run takes one expires_in rather than the fast checks plus one expires_in.
const started = new Map<string, Promise<CheckResult>>();
beforeAll(() => {
  for (const check of checks.filter((c) => c.profile === "full")) started.set(check.id, run(check));
});

for (const area of CHECK_AREAS) {
  const inArea = checks.filter((check) => check.area === area);
  if (inArea.length === 0) continue;
  describe(AREA_TITLES[area], () => {
    for (const check of inArea) {
      const timeout = check.profile === "full" ? LIFETIME_TIMEOUT_MS : FAST_TIMEOUT_MS;
      test(check.id, { timeout }, async ({ task, signal }) => {
        // Vitest aborts the running test's signal when the CLI cancels the run (Ctrl+C): the whole run stops.
        signal.addEventListener("abort", () => deadline.interrupt("the run was interrupted"), { once: true });
        const result = await (started.get(check.id) ?? run(check));
        task.meta.eventHarnessResult = result;
        if (result.status === "FAIL" || result.status === "ERROR")
          throw new Error(`${result.status}: ${result.message}`);
      });
    }
  });
}
