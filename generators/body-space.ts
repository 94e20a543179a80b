import fc from "fast-check";
import type { BodyEncoding, EventInput, Json } from "./event-input.ts";
import { coverEvent, input, JSON_TYPE, plainEvents } from "./event-input.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { JsonText } from "./json-text.ts";
import { toJsonText } from "./json-text.ts";
import type { WideEventOptions } from "./wide-event.ts";

/*
 * The body as a whole: its top-level JSON type ("The body is a JSON object": anything else is refused) and its
 * encoding (RFC 8259 §8.1: UTF-8, no byte-order mark; a receiver MAY ignore one; other charsets are not JSON text
 * exchanged between systems, so a target may refuse them or decode them: answered).
 */

/** Top-level values that are not an object, made from the event. */
const NOT_OBJECTS: ReadonlyArray<readonly [string, (event: Json) => JsonText]> = [
  ["an array holding the event", (event) => [event]],
  ["the event serialised twice (a JSON string)", (event) => toJsonText(event)],
  ["null", () => null],
  ["true", () => true],
  ["false", () => false],
  ["the number 0", () => 0],
  ["the number -1.5", () => -1.5],
  ['the string "checkout"', () => "checkout"],
  ["an empty array", () => []],
  ["an array of the event twice", (event) => [event, event]],
];

/** A valid event's text in another encoding, declared or not. */
const ENCODINGS: ReadonlyArray<
  readonly [what: string, encoding: BodyEncoding, contentType: string, prefix: string]
> = [
  [
    "UTF-16LE with a byte-order mark, declared charset=utf-16",
    "utf-16le",
    "application/json; charset=utf-16",
    "\ufeff",
  ],
  [
    "UTF-16BE with a byte-order mark, declared charset=utf-16",
    "utf-16be",
    "application/json; charset=utf-16",
    "\ufeff",
  ],
  ["UTF-16LE without a byte-order mark, undeclared", "utf-16le", JSON_TYPE, ""],
  ["UTF-16BE declared charset=utf-16be", "utf-16be", "application/json; charset=utf-16be", ""],
];

/** Bytes that are no UTF-8, written as `latin1` code units: each code unit one byte. */
const NOT_UTF8: ReadonlyArray<readonly [what: string, bytes: string]> = [
  ["é as the single Latin-1 byte E9", "\u00e9"],
  ["an overlong encoding of / (C0 AF)", "\u00c0\u00af"],
  ["a surrogate encoded as CESU-8 (ED A0 80)", "\u00ed\u00a0\u0080"],
  ["a truncated 3-byte sequence (E4 B8)", "\u00e4\u00b8"],
  ["a stray continuation byte (80)", "\u0080"],
  ["the byte FF", "\u00ff"],
];

function bodyClass<V>(
  options: WideEventOptions,
  name: string,
  expect: InputExpectation,
  description: string,
  cover: readonly V[],
  values: fc.Arbitrary<V>,
  make: (event: Json, value: V) => EventInput,
): InputClass<EventInput> {
  const base = coverEvent(options);
  return {
    field: "body",
    name,
    description,
    expect,
    cover: cover.map((value) => make(base, value)),
    arbitrary: fc.tuple(plainEvents(options), values).map(([event, value]) => make(event, value)),
  };
}

/** The body classes: its top-level type and its encoding. */
export function bodyClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  return [
    bodyClass(
      options,
      "top-level-not-object",
      "refused",
      "a top-level value that is not an object: an array, a string, null, a boolean, a number",
      NOT_OBJECTS,
      fc.constantFrom(...NOT_OBJECTS),
      (event, [what, make]) => input(`a body that is ${what}`, make(event)),
    ),
    bodyClass(
      options,
      "byte-order-mark",
      "answered",
      "a valid event behind a UTF-8 byte-order mark (RFC 8259 §8.1: a receiver MAY ignore it)",
      [""],
      fc.constant(""),
      (event) => ({
        ...input("a valid event behind a UTF-8 byte-order mark", event),
        body: `\ufeff${toJsonText(event)}`,
      }),
    ),
    bodyClass(
      options,
      "utf-16-and-other-charsets",
      "answered",
      "a valid event in UTF-16 (either byte order, with a byte-order mark or not, declared or not)",
      ENCODINGS,
      fc.constantFrom(...ENCODINGS),
      (event, [what, encoding, contentType, prefix]) => ({
        what: `a valid event in ${what}`,
        body: `${prefix}${toJsonText(event)}`,
        contentType,
        encoding,
      }),
    ),
    bodyClass(
      options,
      "not-utf-8",
      "answered",
      "a valid event whose system holds bytes that are no UTF-8: Latin-1, overlong, CESU-8, truncated",
      NOT_UTF8,
      fc.constantFrom(...NOT_UTF8),
      (event, [what, bytes]) => {
        // The event's text as UTF-8 bytes, each written as one latin1 code unit, with the bad bytes in system.
        const text = toJsonText({ ...event, system: `shop@@EH_BYTES@@` });
        const asBytes = Buffer.from(text, "utf8").toString("latin1").replace("@@EH_BYTES@@", bytes);
        return {
          what: `a valid event whose system holds ${what}`,
          body: asBytes,
          contentType: JSON_TYPE,
          encoding: "latin1",
        };
      },
    ),
  ];
}
