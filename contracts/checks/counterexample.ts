/** A property-based check's failure after shrinking, as every report carries it. */
export interface Counterexample {
  /** What the generator says the input is, e.g. "customer.email is 0 (a number where a string belongs)". */
  readonly what: string;
  /** The Content-Type it was sent with (null: none), redacted and made inert. */
  readonly contentType: string | null;
  /** The minimal input's body as sent, redacted and made inert. */
  readonly input: string;
  /** The run's seed (`--seed`) and fast-check's path to this input: together they replay it. */
  readonly seed: number;
  /** What `--fuzz-replay` takes: the class's key (its coverage), or the key, a colon and fast-check's path. */
  readonly path: string;
  /** The class of the check's value space the input belongs to: `[via/]field/name`. */
  readonly class: string;
  /** The class's coverage (its boundaries, the same in every run) found it broken. */
  readonly byCoverage: boolean;
  /** How many smaller failing inputs shrinking went through; 0 when it could not shrink further. */
  readonly shrinks: number;
  /** Which input (1-based) first failed, after how long a search, and how long shrinking it took. */
  readonly foundAt: { readonly input: number; readonly afterMs: number; readonly shrinkMs: number };
  /** The options that replay it: `--seed N --only ID --fuzz-runs N --fuzz-replay PATH`. */
  readonly replay: string;
}
