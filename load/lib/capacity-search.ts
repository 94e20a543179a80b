/**
 * The search for the highest arrival rate a target holds within its objectives: up from a start rate by a constant
 * factor until a step breaks, then bisecting between the highest rate held and the lowest broken until they are
 * within the resolution. Pure: the harness runs each step and feeds its outcome back.
 */

/** How a step ended: its objectives held, one broke, or the load generator (not the target) limited it. */
export type StepOutcome = "held" | "broken" | "generator";

export interface SearchStep {
  readonly rate: number;
  readonly outcome: StepOutcome;
}

/** How close the highest rate held and the lowest broken must come: a share of the rate held, or events a second. */
export type Resolution =
  | { readonly kind: "relative"; readonly value: number }
  | { readonly kind: "absolute"; readonly value: number };

export interface SearchSettings {
  /** The first step's rate, events a second. */
  readonly startRate: number;
  /** Each step up multiplies the rate by this (and each step down divides it). */
  readonly factor: number;
  readonly resolution: Resolution;
  /** No step goes above this rate. */
  readonly maxRate: number;
  /** No more steps than this. */
  readonly maxSteps: number;
}

/**
 * Why a search ended: the capacity bracketed within the resolution; every rate up to the bound held; even the lowest
 * rate broke; the generator, not the target, limited the highest rates; or the search ran out of steps. (The
 * harness adds its own: the time bound, an interruption, a step k6 could not finish.)
 */
export type SearchStop = "bracketed" | "max-rate" | "min-rate" | "generator" | "steps";

export type NextStep =
  | { readonly kind: "step"; readonly rate: number; readonly phase: "up" | "down" | "bisect" }
  | { readonly kind: "done"; readonly stop: SearchStop };

/** The lowest rate a step runs at: one event a second. */
export const MIN_RATE = 1;

/** What the steps so far say: the highest rate held, the lowest broken, the lowest the generator limited. */
export interface Bracket {
  readonly held: number | undefined;
  readonly broken: number | undefined;
  readonly limited: number | undefined;
}

export function bracketOf(steps: readonly SearchStep[]): Bracket {
  const rates = (outcome: StepOutcome) => steps.filter((s) => s.outcome === outcome).map((s) => s.rate);
  const held = rates("held");
  const broken = rates("broken");
  const limited = rates("generator");
  return {
    held: held.length === 0 ? undefined : Math.max(...held),
    broken: broken.length === 0 ? undefined : Math.min(...broken),
    limited: limited.length === 0 ? undefined : Math.min(...limited),
  };
}

/** The resolution in events a second at the rate held: never under one event a second. */
export function resolutionAt(held: number, resolution: Resolution): number {
  return Math.max(MIN_RATE, resolution.kind === "relative" ? held * resolution.value : resolution.value);
}

/** The rate of the next step, or why the search is over. */
export function nextStep(steps: readonly SearchStep[], settings: SearchSettings): NextStep {
  if (steps.length === 0) return { kind: "step", rate: settings.startRate, phase: "up" };
  const { held, broken, limited } = bracketOf(steps);
  // The lowest rate the search cannot count as held: broken by the target, or out of the generator's reach.
  const upper = broken === undefined ? limited : limited === undefined ? broken : Math.min(broken, limited);
  const limitedFirst = limited !== undefined && (broken === undefined || limited <= broken);
  const done = (stop: SearchStop): NextStep => ({ kind: "done", stop });
  if (steps.length >= settings.maxSteps) return done("steps");
  if (held === undefined) {
    // Nothing held yet: below a broken rate lies a lower one to try; below the generator's limit, nothing to learn.
    if (limitedFirst || broken === undefined) return done("generator");
    if (broken <= MIN_RATE) return done("min-rate");
    return { kind: "step", rate: Math.max(MIN_RATE, Math.floor(broken / settings.factor)), phase: "down" };
  }
  if (upper === undefined) {
    if (held >= settings.maxRate) return done("max-rate");
    return {
      kind: "step",
      rate: Math.min(settings.maxRate, Math.round(held * settings.factor)),
      phase: "up",
    };
  }
  const stop: SearchStop = limitedFirst ? "generator" : "bracketed";
  if (upper - held <= resolutionAt(held, settings.resolution)) return done(stop);
  const middle = Math.round((held + upper) / 2);
  if (middle <= held || middle >= upper) return done(stop);
  return { kind: "step", rate: middle, phase: "bisect" };
}
