import { UndecidableError } from "../../core/index.ts";
import type { Evidence } from "../probe/evidence.ts";
import type { Probe } from "../probe/probe.ts";
import type { ClassExploration, Exploration } from "./exploration.ts";
import type { FuzzSettings, InputClassLike } from "./input-space.ts";
import type { Judgement, PropertyOutcome, Shown } from "./property-run.ts";
import { MAX_SHRINK_STEPS, runProperty } from "./property-run.ts";

/** 429s in a row, across classes, after which the target is left alone: it is rate-limiting, not judging. */
const MAX_NOT_JUDGED_IN_A_ROW = 10;

/** A class that broke, with its minimal input and how to replay it. */
export interface ClassFailure {
  readonly key: string;
  readonly cls: InputClassLike<unknown>;
  readonly shown: Shown;
  readonly judgement: Extract<Judgement, { verdict: "broken" }>;
  readonly evidence: Evidence | undefined;
  /** `KEY` (the class's coverage) or `KEY:PATH` (a search's input): what `--fuzz-replay` takes. */
  readonly path: string;
  /** A coverage input broke the class (whatever the search found after it). */
  readonly byCoverage: boolean;
  readonly shrinks: number;
  /** The input (1-based) of its step that first failed. */
  readonly run: number;
  readonly reproduced: boolean;
  readonly shrinkInterrupted: boolean;
  readonly shrinkCapped: boolean;
  readonly foundAfterMs: number;
  readonly shrinkMs: number;
}

export type ExploreOutcome =
  | { readonly kind: "nothing-sent"; readonly why: string }
  | {
      readonly kind: "explored";
      readonly exploration: Exploration;
      /** Broken classes, a 5xx first, then in the check's order. */
      readonly failures: readonly ClassFailure[];
      /** Classes a transport failure or undecidable answers ended, with that error. */
      readonly errors: ReadonlyArray<{ readonly key: string; readonly error: unknown }>;
      readonly judged: number;
      readonly notJudged: number;
      /** The time limit stopped the check before every class had its coverage and its search. */
      readonly interrupted: boolean;
      /** The replay's `--fuzz-replay`, when this was one. */
      readonly replayed?: string;
    };

export interface ExploreDefinition<T> {
  readonly checkId: string;
  readonly classes: readonly InputClassLike<T>[];
  /** Classes that cannot be sent to this target, with why (a client authentication it does not accept). */
  readonly unreachable?: ReadonlyArray<readonly [InputClassLike<unknown>, string]>;
  /** Sends `value` of `cls` through `probe` (a scratch probe), judges the answer, records what it sent in `shown`. */
  judge(value: T, cls: InputClassLike<T>, probe: Probe, shown: (input: Shown) => void): Promise<Judgement>;
}

/** A class's key: `[via/]field/name`, with anything but `A-Za-z0-9._-` in the field made `-` (as the generators do). */
export function keyOf(cls: Pick<InputClassLike<unknown>, "field" | "name" | "via">): string {
  const field = cls.field.replace(/[^A-Za-z0-9._-]/g, "-");
  return cls.via === undefined ? `${field}/${cls.name}` : `${cls.via}/${field}/${cls.name}`;
}

interface Stats {
  tried: number;
  covered: number;
  notJudged: number;
  answers: Record<string, number>;
}

interface Found {
  readonly shown: Shown;
  readonly judgement: Extract<Judgement, { verdict: "broken" }>;
  readonly evidence: Evidence | undefined;
  readonly run: number;
  readonly foundAfterMs: number;
}

/** How many of `runs` random inputs the class at `index` of `count` gets: an equal share, the rest to the first. */
export function searchShare(runs: number, count: number, index: number): number {
  if (count === 0) return 0;
  return Math.floor(runs / count) + (index < runs % count ? 1 : 0);
}

/**
 * Explores a check's classes against the target: first each class's boundaries (coverage: deterministic, the same
 * in every run whatever the seed; the first of each class, then the second …, so a time limit cuts the last
 * rounds), then a random search with the rest of the budget, each class on its own seed and share, stopping at that
 * class's first failure only, so one failure found early hides no other. Then every broken class found by the search
 * is shrunk, a 5xx first, within the shrink time. A limit is looked at before each input is sent, never while one
 * is in flight. A transport failure ends the class it happened in, not the check.
 */
export async function exploreClasses<T>(
  probe: Probe,
  settings: FuzzSettings,
  definition: ExploreDefinition<T>,
): Promise<ExploreOutcome> {
  const { classes, checkId } = definition;
  const keys = classes.map(keyOf);
  const stats = new Map<string, Stats>(
    keys.map((key) => [key, { tried: 0, covered: 0, notJudged: 0, answers: {} }]),
  );
  const notes = new Map<string, string>();
  const errors = new Map<string, unknown>();
  const coverFailures = new Map<string, Found & { readonly index: number }>();
  const searchFound = new Map<string, Extract<PropertyOutcome, { kind: "found" }>>();
  let inARow = 0;

  const wrapped =
    (cls: InputClassLike<T>, key: string, phase: "cover" | "search" | "shrink") =>
    async (value: T, scratch: Probe, shown: (input: Shown) => void): Promise<Judgement> => {
      const judgement = await definition.judge(value, cls, scratch, shown);
      const tally = stats.get(key);
      if (phase !== "shrink" && tally !== undefined) {
        if (judgement.verdict === "not-judged") tally.notJudged += 1;
        else {
          tally.tried += 1;
          if (phase === "cover") tally.covered += 1;
        }
        if (judgement.status !== undefined)
          tally.answers[judgement.status] = (tally.answers[judgement.status] ?? 0) + 1;
      }
      return judgement;
    };

  const sendCover = async (cls: InputClassLike<T>, key: string, index: number): Promise<void> => {
    const value = cls.cover[index] as T;
    const scratch = probe.scratch();
    let shown: Shown = { what: "", contentType: undefined, body: "" };
    const started = performance.now();
    let judgement: Judgement;
    try {
      judgement = await wrapped(cls, key, "cover")(value, scratch, (input) => {
        shown = input;
      });
    } catch (error) {
      errors.set(key, error);
      return;
    }
    if (judgement.verdict === "not-judged") {
      inARow += 1;
      if (inARow >= MAX_NOT_JUDGED_IN_A_ROW)
        throw new UndecidableError(`${inARow} inputs in a row were not judged: ${judgement.why}`);
      return;
    }
    inARow = 0;
    if (judgement.verdict === "broken" && !coverFailures.has(key))
      coverFailures.set(key, {
        shown,
        judgement,
        evidence: scratch.evidence.at(-1),
        run: index + 1,
        index,
        foundAfterMs: Math.round(performance.now() - started),
      });
  };

  const build = (extra: {
    readonly failures: readonly ClassFailure[];
    readonly interrupted: boolean;
    readonly replayed?: string;
  }): ExploreOutcome => {
    const broken = new Set(extra.failures.map((failure) => failure.key));
    const exploration: Exploration = {
      seed: settings.seed,
      coverage: settings.coverAll === true ? "all" : "first",
      searchRuns: settings.runs,
      classes: [
        ...classes.map((cls, index): ClassExploration => {
          const key = keys[index] as string;
          const tally = stats.get(key) as Stats;
          const error = errors.get(key);
          const outcome = broken.has(key)
            ? "broken"
            : error !== undefined
              ? "undecided"
              : tally.tried === 0 && tally.notJudged === 0
                ? "not-reached"
                : "held";
          const note =
            error !== undefined && !broken.has(key)
              ? `could not decide: ${error instanceof Error ? error.message : String(error)}`
              : notes.get(key);
          return {
            key,
            field: cls.field,
            name: cls.name,
            ...(cls.via === undefined ? {} : { via: cls.via }),
            description: cls.description,
            expect: cls.expect,
            tried: tally.tried,
            covered: tally.covered,
            notJudged: tally.notJudged,
            answers: { ...tally.answers },
            outcome,
            ...(note === undefined ? {} : { note }),
          };
        }),
        ...(definition.unreachable ?? []).map(
          ([cls, why]): ClassExploration => ({
            key: keyOf(cls),
            field: cls.field,
            name: cls.name,
            ...(cls.via === undefined ? {} : { via: cls.via }),
            description: cls.description,
            expect: cls.expect,
            tried: 0,
            covered: 0,
            notJudged: 0,
            answers: {},
            outcome: "not-reached",
            note: why,
          }),
        ),
      ],
    };
    const judged = [...stats.values()].reduce((sum, tally) => sum + tally.tried, 0);
    const notJudged = [...stats.values()].reduce((sum, tally) => sum + tally.notJudged, 0);
    return {
      kind: "explored",
      exploration,
      failures: extra.failures,
      errors: [...errors].filter(([key]) => !broken.has(key)).map(([key, error]) => ({ key, error })),
      judged,
      notJudged,
      interrupted: extra.interrupted,
      ...(extra.replayed === undefined ? {} : { replayed: extra.replayed }),
    };
  };

  const coverFailure = (key: string, cls: InputClassLike<T>): ClassFailure | undefined => {
    const found = coverFailures.get(key);
    return found === undefined
      ? undefined
      : {
          key,
          cls: cls as InputClassLike<unknown>,
          shown: found.shown,
          judgement: found.judgement,
          evidence: found.evidence,
          path: key,
          byCoverage: true,
          shrinks: 0,
          run: found.run,
          reproduced: true,
          shrinkInterrupted: false,
          shrinkCapped: false,
          foundAfterMs: found.foundAfterMs,
          shrinkMs: 0,
        };
  };

  if (settings.replayPath !== undefined) return replay(settings.replayPath);
  if (settings.runs === 0) return { kind: "nothing-sent", why: "--fuzz-runs 0: no input drawn" };
  if (classes.length === 0) return { kind: "nothing-sent", why: "no class of inputs applies to this target" };

  const stopAt = performance.now() + settings.timeLimitMs;
  let sent = false;
  let interrupted = false;
  const rounds = settings.coverAll === true ? Math.max(...classes.map((cls) => cls.cover.length)) : 1;
  coverage: for (let round = 0; round < rounds; round++) {
    for (const [index, cls] of classes.entries()) {
      const key = keys[index] as string;
      if (round >= cls.cover.length || coverFailures.has(key) || errors.has(key)) continue;
      // Checked before sending, never while an input is in flight; the check's first input goes whatever the time.
      if (sent && performance.now() >= stopAt) {
        interrupted = true;
        notes.set(key, `the time limit ended the coverage before this class's boundary ${round + 1}`);
        break coverage;
      }
      sent = true;
      await sendCover(cls, key, round);
    }
  }

  for (const [index, cls] of classes.entries()) {
    const key = keys[index] as string;
    const runs = searchShare(settings.runs, classes.length, index);
    if (runs === 0 || errors.has(key)) continue;
    const now = performance.now();
    if (now >= stopAt) {
      interrupted = true;
      if (!notes.has(key)) notes.set(key, "the time limit ended the check before this class's search");
      continue;
    }
    const later = classes.length - index;
    try {
      const outcome = await runProperty(
        probe,
        { ...settings, runs, timeLimitMs: (stopAt - now) / later },
        { checkId: `${checkId}/${key}`, arbitrary: cls.arbitrary, judge: wrapped(cls, key, "search") },
        MAX_SHRINK_STEPS,
        { shrink: false },
      );
      if (outcome.kind === "found") searchFound.set(key, outcome);
      else if (outcome.kind === "held" && outcome.interrupted) {
        interrupted = true;
        notes.set(key, `the time limit ended this class's search after ${outcome.judged} of ${runs} inputs`);
      }
    } catch (error) {
      errors.set(key, error);
    }
  }

  const failures: ClassFailure[] = [];
  let shrinkLeft = settings.shrinkLimitMs;
  const brokenKeys = keys.filter((key) => coverFailures.has(key) || searchFound.has(key));
  const isServerError = (key: string) =>
    (searchFound.get(key)?.judgement.serverError ?? false) ||
    (coverFailures.get(key)?.judgement.serverError ?? false);
  brokenKeys.sort((a, b) => Number(isServerError(b)) - Number(isServerError(a)));
  for (const key of brokenKeys) {
    const cls = classes[keys.indexOf(key)] as InputClassLike<T>;
    const found = searchFound.get(key);
    const covered = coverFailures.get(key);
    // A search failure stands for the class unless only the coverage met a 5xx: that outranks any other failure.
    if (found === undefined || (covered?.judgement.serverError === true && !found.judgement.serverError)) {
      failures.push({ ...(coverFailure(key, cls) as ClassFailure), reproduced: await recurs(cls, key) });
      continue;
    }
    failures.push(await shrink(cls, key, found, covered !== undefined));
  }
  return build({ failures, interrupted });

  /** Whether a coverage input that broke its class breaks it again when sent once more (else: a flaky target?). */
  async function recurs(cls: InputClassLike<T>, key: string): Promise<boolean> {
    const found = coverFailures.get(key);
    if (found === undefined) return true;
    try {
      const again = await wrapped(cls, key, "shrink")(cls.cover[found.index] as T, probe.scratch(), () => {});
      return again.verdict !== "holds";
    } catch {
      return true;
    }
  }

  async function shrink(
    cls: InputClassLike<T>,
    key: string,
    found: Extract<PropertyOutcome, { kind: "found" }>,
    byCoverage: boolean,
  ): Promise<ClassFailure> {
    const unshrunk = (reproduced: boolean, cut: boolean, shrinkMs: number): ClassFailure => ({
      key,
      cls: cls as InputClassLike<unknown>,
      shown: found.shown,
      judgement: found.judgement,
      evidence: found.evidence,
      path: `${key}:${found.path}`,
      byCoverage,
      shrinks: 0,
      run: found.run,
      reproduced,
      shrinkInterrupted: cut,
      shrinkCapped: false,
      foundAfterMs: found.foundAfterMs,
      shrinkMs,
    });
    if (shrinkLeft <= 0) return unshrunk(true, true, 0);
    const started = performance.now();
    let outcome: PropertyOutcome;
    try {
      outcome = await runProperty(
        probe,
        { ...settings, replayPath: found.path, shrinkLimitMs: shrinkLeft },
        { checkId: `${checkId}/${key}`, arbitrary: cls.arbitrary, judge: wrapped(cls, key, "shrink") },
      );
    } catch {
      // A transport failure while shrinking ends the shrinking, not the verdict: the failure found stands.
      return unshrunk(true, true, Math.round(performance.now() - started));
    } finally {
      shrinkLeft -= performance.now() - started;
    }
    if (outcome.kind !== "failed")
      // The same input did not fail again: report it as found, unshrunk (a flaky target?).
      return unshrunk(false, false, Math.round(performance.now() - started));
    return {
      key,
      cls: cls as InputClassLike<unknown>,
      shown: outcome.shown,
      judgement: outcome.judgement,
      evidence: outcome.evidence,
      path: `${key}:${outcome.path}`,
      byCoverage,
      shrinks: outcome.shrinks,
      run: found.run,
      reproduced: outcome.reproduced,
      shrinkInterrupted: outcome.shrinkInterrupted,
      shrinkCapped: outcome.shrinkCapped,
      foundAfterMs: found.foundAfterMs,
      shrinkMs: outcome.shrinkMs,
    };
  }

  /** `KEY` sends the class's coverage again; `KEY:PATH` replays one search input and shrinks it. */
  async function replay(replayPath: string): Promise<ExploreOutcome> {
    const colon = replayPath.indexOf(":");
    const key = colon === -1 ? replayPath : replayPath.slice(0, colon);
    const path = colon === -1 ? undefined : replayPath.slice(colon + 1);
    const index = keys.indexOf(key);
    const cls = classes[index];
    if (cls === undefined)
      return {
        kind: "nothing-sent",
        why: `${checkId} has no class ${key.length > 80 ? `${key.slice(0, 80)}…` : key} for this target (its classes: ${keys.slice(0, 8).join(", ")}${keys.length > 8 ? ", …" : ""})`,
      };
    if (path === undefined) {
      for (let round = 0; round < cls.cover.length && !coverFailures.has(key) && !errors.has(key); round++)
        await sendCover(cls, key, round);
      const error = errors.get(key);
      if (error !== undefined && !coverFailures.has(key)) throw error;
      const failure = coverFailure(key, cls);
      return build({
        failures: failure === undefined ? [] : [failure],
        interrupted: false,
        replayed: replayPath,
      });
    }
    const outcome = await runProperty(
      probe,
      { ...settings, replayPath: path },
      { checkId: `${checkId}/${key}`, arbitrary: cls.arbitrary, judge: wrapped(cls, key, "search") },
    );
    if (outcome.kind === "nothing-sent") return outcome;
    if (outcome.kind !== "failed") return build({ failures: [], interrupted: false, replayed: replayPath });
    return build({
      failures: [
        {
          key,
          cls: cls as InputClassLike<unknown>,
          shown: outcome.shown,
          judgement: outcome.judgement,
          evidence: outcome.evidence,
          path: `${key}:${outcome.path}`,
          byCoverage: false,
          shrinks: outcome.shrinks,
          run: outcome.run,
          reproduced: outcome.reproduced,
          shrinkInterrupted: outcome.shrinkInterrupted,
          shrinkCapped: outcome.shrinkCapped,
          foundAfterMs: 0,
          shrinkMs: outcome.shrinkMs,
        },
      ],
      interrupted: false,
      replayed: replayPath,
    });
  }
}
