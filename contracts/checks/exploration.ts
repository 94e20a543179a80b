import type { InputExpectation } from "./input-space.ts";

/** What one class of a check met: how many inputs it sent, what the target answered, and how that came out. */
export interface ClassExploration {
  /** `[via/]field/name`: what `--fuzz-replay` takes. */
  readonly key: string;
  readonly field: string;
  readonly name: string;
  readonly via?: string;
  readonly description: string;
  readonly expect: InputExpectation;
  /** Inputs judged: coverage and search (shrink candidates are not counted). */
  readonly tried: number;
  /** Of those, the class's coverage inputs. */
  readonly covered: number;
  /** Inputs answered 429, which judge nothing. */
  readonly notJudged: number;
  /** How often each status answered the class's inputs. */
  readonly answers: Readonly<Record<string, number>>;
  /** held: every input got what its class requires; broken; undecided (a transport failure); not-reached (time). */
  readonly outcome: "held" | "broken" | "undecided" | "not-reached";
  /** Why a class was undecided or not reached, or how far the run's time let it go. */
  readonly note?: string;
}

/** What a property-based check explored, for results.json and the HTML report. */
export interface Exploration {
  readonly seed: number;
  /** `all`: every boundary of every class (full profile); `first`: each class's first (fast profile). */
  readonly coverage: "first" | "all";
  /** Random inputs the check drew after its coverage, spread over its classes. */
  readonly searchRuns: number;
  readonly classes: readonly ClassExploration[];
}
