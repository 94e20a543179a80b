import fc from "fast-check";
import { Undecidable } from "../../core/index.ts";
import type { Evidence } from "../probe/evidence.ts";
import type { Probe } from "../probe/probe.ts";
import type { FuzzSettings } from "./input-space.ts";

/** What one input got: the rule held, broke (a 5xx among the ways), or the answer judged nothing (429). */
export type Judgement =
  | { readonly verdict: "holds" }
  | {
      readonly verdict: "broken";
      /** What the target did, e.g. "received 500 application/json (empty body)". */
      readonly said: string;
      readonly serverError: boolean;
    }
  | { readonly verdict: "not-judged"; readonly why: string };

/** An input as sent, for the report: what it is, its media type and its exact body. */
export interface Shown {
  readonly what: string;
  /** The Content-Type sent; undefined when none was. */
  readonly contentType: string | undefined;
  readonly body: string;
}

export interface PropertyDefinition<T> {
  readonly checkId: string;
  readonly arbitrary: fc.Arbitrary<T>;
  /** Sends `value` through `probe` (a scratch probe) and judges the answer; records what it sent in `shown`. */
  judge(value: T, probe: Probe, shown: (input: Shown) => void): Promise<Judgement>;
}

/** A failure as found and shrunk: the minimal input, what the target did with it, and how to replay it. */
export interface PropertyFailure {
  readonly shown: Shown;
  readonly judgement: Extract<Judgement, { verdict: "broken" }>;
  readonly evidence: Evidence | undefined;
  readonly path: string;
  readonly shrinks: number;
  /** The run (1-based) that first failed, and how many had passed before it. */
  readonly run: number;
  /** False when the input found did not fail again when replayed to shrink it (a flaky target). */
  readonly reproduced: boolean;
  /** Shrinking stopped at the time limit: a smaller input may exist (replay the path to go on). */
  readonly shrinkInterrupted: boolean;
  /** How long the search took to find it (0 for a replay), and shrinking it took. */
  readonly foundAfterMs: number;
  readonly shrinkMs: number;
}

export type PropertyOutcome =
  | {
      readonly kind: "held";
      readonly judged: number;
      readonly notJudged: number;
      /** The time limit stopped the search before `runs` inputs. */
      readonly interrupted: boolean;
    }
  | { readonly kind: "nothing-sent"; readonly why: string }
  | ({ readonly kind: "failed"; readonly notJudged: number } & PropertyFailure);

/** 429s in a row after which the target is left alone: it is rate-limiting, not judging. */
const MAX_NOT_JUDGED_IN_A_ROW = 10;
/** The longest Retry-After the check honours between inputs. */
export const MAX_RETRY_AFTER_MS = 2_000;

/** Each check draws from a seed of its own, made from the run's seed and its id (FNV-1a), so --only keeps it. */
export function propertySeed(runSeed: number, checkId: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${runSeed}:${checkId}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash | 0;
}

interface Recorded {
  readonly shown: Shown;
  readonly judgement: Extract<Judgement, { verdict: "broken" }>;
  readonly evidence: Evidence | undefined;
}

/**
 * Runs a property against the target in two steps: a search (`settings.runs` inputs, within the time limit) that
 * stops at the first failure, then a replay of that failure by seed and path that shrinks it to a minimal input
 * (within the time limit again). Transport failures and undecidable answers end the check (rethrown); a 429
 * judges nothing (honouring Retry-After) and is skipped.
 */
export async function runProperty<T>(
  probe: Probe,
  settings: FuzzSettings,
  definition: PropertyDefinition<T>,
): Promise<PropertyOutcome> {
  const seed = propertySeed(settings.seed, definition.checkId);
  let open = true;
  let judged = 0;
  let notJudged = 0;
  let inARow = 0;
  let last: Recorded | undefined;
  // What ended the check from inside the property (a transport failure, an undecidable answer, a harness bug).
  let thrown: { readonly error: unknown } | undefined;

  const property = fc.asyncProperty(definition.arbitrary, async (value) => {
    if (!open || thrown !== undefined) return true;
    const scratch = probe.scratch();
    let shown: Shown = { what: "", contentType: undefined, body: "" };
    let judgement: Judgement;
    try {
      judgement = await definition.judge(value, scratch, (input) => {
        shown = input;
      });
      if (judgement.verdict === "not-judged" && inARow + 1 >= MAX_NOT_JUDGED_IN_A_ROW)
        throw new Undecidable(`${inARow + 1} inputs in a row were not judged: ${judgement.why}`);
    } catch (error) {
      thrown = { error };
      throw error;
    }
    if (judgement.verdict === "not-judged") {
      notJudged += 1;
      inARow += 1;
      fc.pre(false);
    }
    inARow = 0;
    judged += 1;
    if (judgement.verdict === "holds") return true;
    if (open) last = { shown, judgement, evidence: scratch.evidence.at(-1) };
    return false;
  });
  const limit = (ms: number) => [fc.interruptAfterTimeLimit(ms)];

  let found: { readonly path: string; readonly recorded: Recorded; readonly run: number } | undefined;
  const searchStarted = performance.now();
  if (settings.replayPath === undefined) {
    if (settings.runs === 0) return { kind: "nothing-sent", why: "--fuzz-runs 0: no input drawn" };
    const search = await fc.check(property, {
      seed,
      numRuns: settings.runs,
      endOnFailure: true,
      maxSkipsPerRun: MAX_NOT_JUDGED_IN_A_ROW,
      plugins: limit(settings.timeLimitMs),
    });
    const ended = thrown as { readonly error: unknown } | undefined;
    if (ended !== undefined) throw ended.error;
    if (!search.failed || search.counterexamplePath === null || last === undefined) {
      open = false;
      if (judged === 0)
        return {
          kind: "nothing-sent",
          why:
            notJudged > 0
              ? `every answer was a rate limit (${notJudged} not judged)`
              : "the time limit passed before the first input was sent",
        };
      return { kind: "held", judged, notJudged, interrupted: search.interrupted };
    }
    found = { path: search.counterexamplePath, recorded: last, run: search.numRuns };
  }

  const foundAfterMs = found === undefined ? 0 : Math.round(performance.now() - searchStarted);
  probe.progress(
    `${definition.checkId}: ${found ? `a failure at input ${found.run}; shrinking it` : "replaying"}`,
  );
  const shrinkStarted = performance.now();
  last = undefined;
  thrown = undefined;
  const replayPath = found?.path ?? (settings.replayPath as string);
  const shrink = await fc.check(property, {
    seed,
    path: replayPath,
    // One value at the path, then only its shrinks: nothing else is drawn.
    numRuns: 1,
    maxSkipsPerRun: MAX_NOT_JUDGED_IN_A_ROW,
    plugins: limit(settings.shrinkLimitMs),
  });
  open = false;
  const shrinkMs = Math.round(performance.now() - shrinkStarted);
  const shrunk = last as Recorded | undefined;
  // Set inside the property, which TypeScript cannot follow.
  const ended = thrown as { readonly error: unknown } | undefined;
  // A transport failure while shrinking ends the shrinking, not the verdict: the smallest failure so far stands.
  const cutShort = ended !== undefined;
  if (ended !== undefined && shrunk === undefined && found === undefined) throw ended.error;
  if (shrunk !== undefined && (cutShort || (shrink.failed && shrink.counterexamplePath !== null))) {
    return {
      kind: "failed",
      notJudged,
      ...shrunk,
      path: shrink.counterexamplePath ?? replayPath,
      shrinks: shrink.numShrinks,
      run: found?.run ?? Number(replayPath.split(":")[0]) + 1,
      reproduced: true,
      shrinkInterrupted: cutShort || shrink.interrupted,
      foundAfterMs,
      shrinkMs,
    };
  }
  if (found === undefined) return { kind: "held", judged, notJudged, interrupted: false };
  // The target answered the same input differently the second time: report what was found, unshrunk.
  return {
    kind: "failed",
    notJudged,
    ...found.recorded,
    path: found.path,
    shrinks: 0,
    run: found.run,
    reproduced: cutShort,
    shrinkInterrupted: cutShort,
    foundAfterMs,
    shrinkMs,
  };
}
