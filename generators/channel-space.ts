import fc from "fast-check";
import { CHANNEL_PREFIX } from "../domain/index.ts";
import type { EventInput } from "./event-input.ts";
import { fieldClass, input, withValue } from "./event-input.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import { UNICODE_CATEGORIES } from "./string-space.ts";
import type { WideEventOptions } from "./wide-event.ts";

/*
 * channel.id's value space. The spec states one format: "It starts with the prefix chl-". A value that does not
 * start with it is refused; what follows the prefix is an identifier whose alphabet the spec does not give, so any
 * tail is answered either way (a target may know only its own channels).
 */

const TAIL = fc.string({
  unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-_"),
  minLength: 1,
  maxLength: 36,
});

/** Prefixes that look like `chl-` and are not it: case, punctuation, look-alike letters, something before it. */
const NOT_THE_PREFIX: ReadonlyArray<readonly [string, string]> = [
  ["", "no prefix"],
  ["CHL-", "the prefix in capitals"],
  ["Chl-", "the prefix capitalised"],
  ["chl_", "an underscore for the hyphen"],
  ["chl", "no hyphen"],
  ["chl\u2010", "U+2010 HYPHEN for the hyphen-minus"],
  ["сhl-", "a Cyrillic с"],
  ["ｃｈｌ-", "fullwidth letters"],
  ["\u200bchl-", "a zero-width space before it"],
  ["x-chl-", "something before it"],
];

/** The tail of a configured channel (after its prefix), or a fixed one. */
function tailOf(options: WideEventOptions): string {
  const channel = options.channels?.[0];
  return channel?.startsWith(CHANNEL_PREFIX) ? channel.slice(CHANNEL_PREFIX.length) || "harness" : "harness";
}

function channelClass(
  options: WideEventOptions,
  name: string,
  expect: InputExpectation,
  description: string,
  cover: readonly string[],
  values: fc.Arbitrary<string>,
): InputClass<EventInput> {
  return fieldClass(options, {
    field: "channel.id",
    name,
    description,
    expect,
    cover,
    values,
    make: (event, id) =>
      input(
        `channel.id ${JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id)} (${description})`,
        withValue(event, ["channel", "id"], id),
      ),
  });
}

/** The channel.id classes: the prefix broken (refused), and tails from every Unicode category and length (answered). */
export function channelClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  const tail = tailOf(options);
  const broken = NOT_THE_PREFIX.map(([prefix]) => `${prefix}${tail}`);
  return [
    channelClass(
      options,
      "prefix-broken",
      "refused",
      'not starting with "chl-": no prefix, another case, another hyphen, look-alike letters, something before it',
      broken,
      fc
        .tuple(fc.constantFrom(...NOT_THE_PREFIX), TAIL)
        .map(([[prefix], drawn]) => `${prefix}${drawn}`)
        // "chl" without its hyphen, or no prefix, then a tail that brings it, makes a valid id: never drawn here.
        .filter((id) => !id.startsWith(CHANNEL_PREFIX)),
    ),
    channelClass(
      options,
      "prefix-only",
      "answered",
      '"chl-" alone (it does start with the prefix; whether an empty identifier is one: not shown)',
      [CHANNEL_PREFIX],
      fc.constant(CHANNEL_PREFIX),
    ),
    ...UNICODE_CATEGORIES.map(([name, description, , characters]) =>
      channelClass(
        options,
        `tail-${name}`,
        "answered",
        `"chl-" then ${description}`,
        [`${CHANNEL_PREFIX}${characters.join("")}`],
        fc
          .string({ unit: fc.constantFrom(...characters), minLength: 1, maxLength: 12 })
          .map((drawn) => `${CHANNEL_PREFIX}${drawn}`),
      ),
    ),
    channelClass(
      options,
      "tail-lengths",
      "answered",
      '"chl-" then 37 to 10,000 characters, ids of 255 and 256 among them (the length of an identifier: not shown)',
      [10_000, 252, 251].map((length) => `${CHANNEL_PREFIX}${"c".repeat(length)}`),
      fc.integer({ min: 37, max: 10_000 }).map((length) => `${CHANNEL_PREFIX}${"c".repeat(length)}`),
    ),
  ];
}
