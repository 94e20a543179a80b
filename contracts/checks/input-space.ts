import type fc from "fast-check";

/** What a correct target does with an input of a class: accepts it, refuses it, or answers either way (no 5xx). */
export type InputExpectation = "accepted" | "refused" | "answered";

/** One body for POST /events (generators' EventInput): what it is, its exact text, its media type and envelope. */
export interface EventInputLike {
  readonly what: string;
  /** The body; `InputSpace.referenceSlot` marks where the sender's unique reference stem goes. */
  readonly body: string;
  /** The Content-Type header; undefined sends none. */
  readonly contentType: string | undefined;
  /** Further headers, sent as given. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The Authorization header, `InputSpace.tokenSlot` where the access token goes; default `Bearer <token>`. */
  readonly authorization?: string;
  /** How the body's text becomes bytes; default UTF-8. */
  readonly encoding?: "utf-8" | "utf-16le" | "utf-16be" | "latin1";
}

/** One token request (generators' TokenFormInput). */
export interface TokenFormInputLike {
  readonly what: string;
  readonly body: string;
  readonly contentType: string;
  /** The Authorization header instead of the client authentication's own. */
  readonly authorization?: string;
  /** Sent without any Authorization header. */
  readonly withoutAuthorization?: boolean;
  /** Values made from the secret the request carries: registered with the redactor before it is sent. */
  readonly hide?: readonly string[];
  readonly hideBasic?: ReadonlyArray<readonly [string, string]>;
}

/** One class of a field's value space (generators' InputClass). */
export interface InputClassLike<T> {
  readonly field: string;
  readonly name: string;
  readonly via?: string;
  readonly description: string;
  readonly expect: InputExpectation;
  /** The class's boundaries, sent first in every run whatever the seed. */
  readonly cover: readonly T[];
  readonly arbitrary: fc.Arbitrary<T>;
}

/** The target's valid token request under one client authentication (generators' TokenRequestShape). */
export interface TokenRequestShapeLike {
  readonly via: "client_secret_post" | "client_secret_basic";
  readonly fields: ReadonlyArray<readonly [string, string]>;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly secrets: ReadonlySet<string>;
}

type EventClasses = readonly InputClassLike<EventInputLike>[];

/**
 * The classes the property-based checks explore, handed in by the suite (the generators' classes): contracts judge
 * inputs, they do not make them.
 */
export interface InputSpace {
  readonly referenceSlot: string;
  readonly tokenSlot: string;
  readonly valid: EventClasses;
  readonly silent: EventClasses;
  readonly types: EventClasses;
  readonly dates: EventClasses;
  readonly email: EventClasses;
  readonly strings: EventClasses;
  readonly calendar: EventClasses;
  readonly channelId: EventClasses;
  readonly body: EventClasses;
  readonly envelope: EventClasses;
  readonly jsonGrammar: EventClasses;
  tokenForm(
    shape: TokenRequestShapeLike,
    basicHeader?: string,
  ): readonly InputClassLike<TokenFormInputLike>[];
  tokenFields(shape: TokenRequestShapeLike): readonly InputClassLike<TokenFormInputLike>[];
}

/** How many inputs each property-based check draws, for how long, and from which seed. */
export interface FuzzSettings {
  /** The run's seed (`--seed`): each class draws from its own seed made from it, the check's id and the class. */
  readonly seed: number;
  /** Random inputs per check after its coverage (`--fuzz-runs`), spread over its classes; 0 sends nothing. */
  readonly runs: number;
  /** How long each check may explore (its share of `--fuzz-time`). */
  readonly timeLimitMs: number;
  /** How long a check that found failures may shrink them, together. */
  readonly shrinkLimitMs: number;
  /** The run's id: references carry it, so they never repeat across runs. */
  readonly runId: string;
  /** Every boundary of every class (the full profile), or only each class's first (the fast profile). */
  readonly coverAll?: boolean;
  /** Replay one class's coverage (`CLASS`) or one counterexample (`CLASS:PATH`), instead of exploring. */
  readonly replayPath?: string;
}
