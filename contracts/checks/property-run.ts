import fc from "fast-check";
import { formatDuration, UndecidableError } from "../../core/index.ts";
import type { Evidence } from "../probe/evidence.ts";
import type { Probe } from "../probe/probe.ts";
import type { FuzzSettings } from "./input-space.ts";

/** What one input got: the rule held, broke (a 5xx among the ways), or the answer judged nothing (429). */
export type Judgement = (
  | { readonly verdict: "holds" }
  | {
      readonly verdict: "broken";
      /** What the target did, e.g. "received 500 application/json (empty body)". */
      readonly said: string;
      readonly serverError: boolean;
    }
  | { readonly verdict: "not-judged"; readonly why: string }
) & {
  /** The answer's status, for the report of what was explored. */
  readonly status?: number;
};

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
  /** Shrinking stopped at MAX_SHRINK_STEPS: a smaller input may exist, but no replay goes further. */
  readonly shrinkCapped: boolean;
  /** How long the search took to find it (0 for a replay), and shrinking it took. */
  readonly foundAfterMs: number;
  readonly shrinkMs: number;
}

export type PropertyOutcome =
  | {
      /** A search told not to shrink found a failure: it stops there (shrink it later by replaying `path`). */
      readonly kind: "found";
      readonly notJudged: number;
      readonly judged: number;
      readonly shown: Shown;
      readonly judgement: Extract<Judgement, { verdict: "broken" }>;
      readonly evidence: Evidence | undefined;
      readonly path: string;
      readonly run: number;
      readonly foundAfterMs: number;
    }
  | {
      readonly kind: "held";
      readonly judged: number;
      readonly notJudged: number;
      /** The time limit stopped the search before `runs` inputs. */
      readonly interrupted: boolean;
      /** The path replayed (`--fuzz-replay`, cut short if long) instead of a search; undefined after a search. */
      readonly replayed: string | undefined;
    }
  | { readonly kind: "nothing-sent"; readonly why: string }
  | ({ readonly kind: "failed"; readonly notJudged: number } & PropertyFailure);

/** 429s in a row after which the target is left alone: it is rate-limiting, not judging. */
const MAX_NOT_JUDGED_IN_A_ROW = 10;
/** The longest Retry-After the check honours between inputs. */
export const MAX_RETRY_AFTER_MS = 2_000;
/**
 * The most shrink candidates a check sends for one failure (the longest shrink measured took about 7,400), so every
 * path it reports replays by walking at most as many candidates, without a request, in well under a second.
 */
export const MAX_SHRINK_STEPS = 20_000;

/** How many inputs a search of `runs` can draw: each judged one may follow that many answered 429. */
export function inputsDrawnAtMost(runs: number): number {
  return runs * (1 + MAX_NOT_JUDGED_IN_A_ROW);
}

/** The shrink candidates a path walks past its first input: n + 1 at a level where the n + 1th failed. */
function shrinkSteps(segments: readonly number[]): number {
  return segments.slice(1).reduce((steps, index) => steps + index + 1, 0);
}

/** A path as a message quotes it: a long one cut short, with its length. */
function shownPath(path: string): string {
  return path.length > 40 ? `${path.slice(0, 40)}… (${path.length} characters)` : path;
}

/**
 * Why `replay` (a class's key, then optionally a colon and a path of digits and colons) is nothing a search of `runs`
 * inputs can have reported, or undefined. Walking a path costs one draw per input before it and one candidate per
 * shrink step, before anything is sent: unbounded, a path would hold the run for hours, deaf to signals.
 */
export function replayPathProblem(replay: string, runs: number): string | undefined {
  const colon = replay.indexOf(":");
  return colon === -1 ? undefined : pathProblem(replay.slice(colon + 1), runs, shownPath(replay));
}

/** Why a path of digits and colons is none a search of `runs` inputs can have reported (shown as `shown`). */
function pathProblem(path: string, runs: number, shown: string): string | undefined {
  const segments = path.split(":").map(Number);
  const first = segments[0] ?? 0;
  const drawn = inputsDrawnAtMost(runs);
  if (!(first < drawn)) {
    return (
      `--fuzz-replay ${shown} starts at input ${first < 1e15 ? first + 1 : "past 10^15"}, past the ${drawn} a search ` +
      `of --fuzz-runs ${runs} can draw (${runs} judged, each after at most ${MAX_NOT_JUDGED_IN_A_ROW} answered 429): ` +
      "give the --fuzz-runs of the run that found it"
    );
  }
  const steps = segments.length - 1 > MAX_SHRINK_STEPS ? Number.POSITIVE_INFINITY : shrinkSteps(segments);
  if (!(steps <= MAX_SHRINK_STEPS)) {
    return (
      `--fuzz-replay ${shown} walks ${Number.isFinite(steps) ? steps : `more than ${MAX_SHRINK_STEPS}`} shrink steps, ` +
      `past the ${MAX_SHRINK_STEPS} a check takes at most: no run reports such a path`
    );
  }
  return undefined;
}

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
 * (within the time limit again, and MAX_SHRINK_STEPS). A limit stops new inputs but never one in flight: its answer
 * is judged however late. Transport failures and undecidable answers end the check (rethrown); a 429 judges nothing
 * (honouring Retry-After) and is skipped, and a check whose every answer was a 429 could not decide.
 */
export async function runProperty<T>(
  probe: Probe,
  settings: FuzzSettings,
  definition: PropertyDefinition<T>,
  maxShrinkSteps: number = MAX_SHRINK_STEPS,
  options: { readonly shrink?: boolean } = {},
): Promise<PropertyOutcome> {
  const seed = propertySeed(settings.seed, definition.checkId);
  let judged = 0;
  let notJudged = 0;
  let inARow = 0;
  let last: Recorded | undefined;
  // What ended the check from inside the property (a transport failure, an undecidable answer, a harness bug).
  let thrown: { readonly error: unknown } | undefined;
  // The current step's limits: past `stopAt` (performance.now()) or `budget` inputs, no new input is sent.
  let stopAt = 0;
  let budget = Number.POSITIVE_INFINITY;
  let sent = 0;
  let stoppedBySteps = false;

  const property = fc.asyncProperty(definition.arbitrary, async (value) => {
    // Checked before sending, never while an input is in flight; each step sends its first input whatever the time.
    if (thrown !== undefined) throw new fc.PreconditionFailure(true);
    if (sent > 0 && performance.now() >= stopAt) throw new fc.PreconditionFailure(true);
    if (sent >= budget) {
      stoppedBySteps = true;
      throw new fc.PreconditionFailure(true);
    }
    sent += 1;
    const scratch = probe.scratch();
    let shown: Shown = { what: "", contentType: undefined, body: "" };
    let judgement: Judgement;
    try {
      judgement = await definition.judge(value, scratch, (input) => {
        shown = input;
      });
      if (judgement.verdict === "not-judged" && inARow + 1 >= MAX_NOT_JUDGED_IN_A_ROW)
        throw new UndecidableError(`${inARow + 1} inputs in a row were not judged: ${judgement.why}`);
    } catch (error) {
      // Interrupting rather than failing: fast-check would shrink an error, and report its path as the failure's.
      thrown = { error };
      throw new fc.PreconditionFailure(true);
    }
    if (judgement.verdict === "not-judged") {
      notJudged += 1;
      inARow += 1;
      fc.pre(false);
    }
    inARow = 0;
    judged += 1;
    if (judgement.verdict === "holds") return true;
    last = { shown, judgement, evidence: scratch.evidence.at(-1) };
    return false;
  });

  let found: { readonly path: string; readonly recorded: Recorded; readonly run: number } | undefined;
  const searchStarted = performance.now();
  if (settings.replayPath === undefined) {
    if (settings.runs === 0) return { kind: "nothing-sent", why: "--fuzz-runs 0: no input drawn" };
    stopAt = searchStarted + settings.timeLimitMs;
    const search = await fc.check(property, {
      seed,
      numRuns: settings.runs,
      endOnFailure: true,
      maxSkipsPerRun: MAX_NOT_JUDGED_IN_A_ROW,
    });
    const ended = thrown as { readonly error: unknown } | undefined;
    if (ended !== undefined) throw ended.error;
    if (!search.failed || search.counterexamplePath === null || last === undefined) {
      if (judged === 0) throw notDecided(notJudged, settings.timeLimitMs);
      return { kind: "held", judged, notJudged, interrupted: search.interrupted, replayed: undefined };
    }
    found = { path: search.counterexamplePath, recorded: last, run: search.numRuns };
    if (options.shrink === false)
      return {
        kind: "found",
        notJudged,
        judged,
        ...found.recorded,
        path: found.path,
        run: found.run,
        foundAfterMs: Math.round(performance.now() - searchStarted),
      };
  } else {
    const problem = pathProblem(settings.replayPath, settings.runs, shownPath(settings.replayPath));
    if (problem !== undefined) return { kind: "nothing-sent", why: problem };
  }

  const foundAfterMs = found === undefined ? 0 : Math.round(performance.now() - searchStarted);
  probe.progress(
    `${definition.checkId}: ${found ? `a failure at input ${found.run}; shrinking it` : "replaying a failure to shrink it"}`,
  );
  const shrinkStarted = performance.now();
  last = undefined;
  thrown = undefined;
  const replayPath = found?.path ?? (settings.replayPath as string);
  const judgedBefore = judged;
  const notJudgedBefore = notJudged;
  sent = 0;
  stopAt = shrinkStarted + settings.shrinkLimitMs;
  // The input at the path, then at most as many candidates as keep the path it reports replayable.
  budget = Math.max(1, 1 + maxShrinkSteps - shrinkSteps(replayPath.split(":").map(Number)));
  let shrink: fc.RunDetails<[T]>;
  try {
    shrink = await fc.check(property, {
      seed,
      path: replayPath,
      // One value at the path, then only its shrinks: nothing else is drawn.
      numRuns: 1,
      maxSkipsPerRun: MAX_NOT_JUDGED_IN_A_ROW,
    });
  } catch (error) {
    // fast-check walks the path before running anything: a path past the shrinks of this seed's inputs.
    if (found === undefined && sent === 0)
      return {
        kind: "nothing-sent",
        why: `the path ${shownPath(replayPath)} leads to no input of seed ${settings.seed}`,
      };
    throw error;
  }
  const shrinkMs = Math.round(performance.now() - shrinkStarted);
  const shrunk = last as Recorded | undefined;
  // Set inside the property, which TypeScript cannot follow.
  const ended = thrown as { readonly error: unknown } | undefined;
  // A transport failure while shrinking ends the shrinking, not the verdict: the smallest failure so far stands.
  const cutShort = ended !== undefined;
  if (ended !== undefined && shrunk === undefined && found === undefined) throw ended.error;
  if (shrunk !== undefined && shrink.failed && shrink.counterexamplePath !== null) {
    return {
      kind: "failed",
      notJudged,
      ...shrunk,
      path: shrink.counterexamplePath,
      shrinks: shrink.numShrinks,
      run: found?.run ?? Number(replayPath.split(":")[0]) + 1,
      reproduced: true,
      shrinkInterrupted: cutShort || (shrink.interrupted && !stoppedBySteps),
      shrinkCapped: stoppedBySteps,
      foundAfterMs,
      shrinkMs,
    };
  }
  if (found === undefined) {
    // A replay that judged nothing proved nothing: no input at the path, or only 429s.
    if (sent === 0)
      return {
        kind: "nothing-sent",
        why: `the path ${shownPath(replayPath)} leads to no input of seed ${settings.seed}`,
      };
    if (judged === judgedBefore) throw notDecided(notJudged - notJudgedBefore, settings.shrinkLimitMs);
    return {
      kind: "held",
      judged: judged - judgedBefore,
      notJudged,
      interrupted: shrink.interrupted,
      replayed: shownPath(replayPath),
    };
  }
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
    shrinkCapped: false,
    foundAfterMs,
    shrinkMs,
  };
}

/** Inputs were asked for and none was judged: the answers were all 429, or (never in practice) none was sent. */
function notDecided(notJudged: number, limitMs: number): UndecidableError {
  return new UndecidableError(
    notJudged > 0
      ? `every input sent was answered 429 (too many requests): ${notJudged} not judged`
      : `no input was judged within the time limit of ${formatDuration(limitMs)}`,
  );
}
