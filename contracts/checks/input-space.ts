import type fc from "fast-check";

/** One body for POST /events (generators' EventInput): what it is, its exact text and its media type. */
export interface EventInputLike {
  readonly what: string;
  /** The body; `InputSpace.referenceSlot` marks where the sender's unique reference stem goes. */
  readonly body: string;
  /** The Content-Type header; undefined sends none. */
  readonly contentType: string | undefined;
}

/** One token request (generators' TokenFormInput) and what RFC 6749 says it must get. */
export interface TokenFormInputLike {
  readonly what: string;
  readonly body: string;
  readonly contentType: string;
  readonly expect: "token" | "refused";
}

/**
 * The inputs the property-based checks draw from, handed in by the suite (the generators' arbitraries): contracts
 * judge inputs, they do not make them.
 */
export interface InputSpace {
  readonly referenceSlot: string;
  /** Valid events from the whole space the spec allows: each must be accepted. */
  readonly valid: fc.Arbitrary<EventInputLike>;
  /** Inputs the spec is silent on, and bodies that are not a JSON event: none may make the target fail. */
  readonly silent: fc.Arbitrary<EventInputLike>;
  /** Events with a documented field of the wrong JSON type: each must be refused. */
  readonly types: fc.Arbitrary<EventInputLike>;
  /** Events whose transaction.date breaks the spec's format: each must be refused. */
  readonly dates: fc.Arbitrary<EventInputLike>;
  /** Token requests made from the target's own valid form (`fields`), secrets never re-encoded. */
  tokenForms(
    fields: ReadonlyArray<readonly [string, string]>,
    secrets: ReadonlySet<string>,
  ): fc.Arbitrary<TokenFormInputLike>;
}

/** How many inputs each property-based check draws, for how long, and from which seed. */
export interface FuzzSettings {
  /** The run's seed (`--seed`): each check draws from its own seed made from it and its id. */
  readonly seed: number;
  /** Inputs per check (`--fuzz-runs`). */
  readonly runs: number;
  /** How long each check may search (its share of `--fuzz-time`). */
  readonly timeLimitMs: number;
  /** How long a check that found a failure may shrink it. */
  readonly shrinkLimitMs: number;
  /** The run's id: references carry it, so they never repeat across runs. */
  readonly runId: string;
  /** Replay one counterexample from its path (`--fuzz-replay`), instead of searching. */
  readonly replayPath?: string;
}
