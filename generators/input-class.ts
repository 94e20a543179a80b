import type fc from "fast-check";

/**
 * What a correct target does with every input of a class: accepts it (2xx, or a token), refuses it (4xx), or
 * answers it either way (the spec is silent: only a 5xx is a fault).
 */
export type InputExpectation = "accepted" | "refused" | "answered";

/**
 * One class of a field's value space, from the standard the spec cites: its boundaries, sent first in every run
 * whatever the seed, and an arbitrary the search draws more of the same class from.
 */
export interface InputClass<T> {
  /** The field or part of the request the class varies: `customer.email`, `body`, `Content-Type`, `client_secret`. */
  readonly field: string;
  /** Kebab-case, unique for its field in its check: names the class in reports and in `--fuzz-replay`. */
  readonly name: string;
  /** The client authentication the class's token requests use (`client_secret_basic`), when that matters. */
  readonly via?: string;
  /** What the class holds, for a report: "a local part of 64 octets, the most RFC 5321 §4.5.3.1.1 allows". */
  readonly description: string;
  readonly expect: InputExpectation;
  /** The class's boundaries, most telling first: the fast profile sends the first, the full profile all. */
  readonly cover: readonly T[];
  /** Further inputs of the same class for the search. */
  readonly arbitrary: fc.Arbitrary<T>;
}

/** A class's key, unique in its check: `[via/]field/name`, with anything but `A-Za-z0-9._-` in the field made `-`. */
export function classKey(cls: Pick<InputClass<unknown>, "field" | "name" | "via">): string {
  const field = cls.field.replace(/[^A-Za-z0-9._-]/g, "-");
  return cls.via === undefined ? `${field}/${cls.name}` : `${cls.via}/${field}/${cls.name}`;
}
