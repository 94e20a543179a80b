import fc from "fast-check";
import type { EventInput, Json } from "./event-input.ts";
import { coverEvent, JSON_TYPE, plainEvents } from "./event-input.ts";
import type { InputClass } from "./input-class.ts";
import type { JsonText } from "./json-text.ts";
import { REFERENCE_STEM_SLOT } from "./wide-event.ts";

/*
 * The JSON text's own grammar (RFC 8259), beyond the values of its fields: insignificant whitespace around every
 * structural character (§2), escapes for any character of a string (§7: \uXXXX, surrogate pairs as two escapes,
 * \/), members in any order (§4: an object is unordered). Each text is the same event, so it is accepted.
 */

type Writer = readonly [what: string, write: (value: JsonText, indent: string) => string];

/** Every character of a string as \uXXXX (astral ones as two escapes), but the sender's reference slot. */
function escapeAll(text: string): string {
  const [before, after] = text.includes(REFERENCE_STEM_SLOT)
    ? text.split(REFERENCE_STEM_SLOT)
    : [text, undefined];
  const escaped = (part: string) =>
    [...part]
      .flatMap((character) => {
        const units =
          character.length === 2
            ? [character.charCodeAt(0), character.charCodeAt(1)]
            : [character.charCodeAt(0)];
        return units.map((unit) => `\\u${unit.toString(16).padStart(4, "0")}`);
      })
      .join("");
  return after === undefined
    ? escaped(before ?? "")
    : `${escaped(before ?? "")}${REFERENCE_STEM_SLOT}${escaped(after)}`;
}

/** JSON text of `value` with `space` around structural characters and strings written by `string`. */
function write(
  value: JsonText,
  space: { readonly before: string; readonly after: string },
  string: (text: string) => string,
  order: (keys: string[]) => string[] = (keys) => keys,
): string {
  if (value === null || typeof value !== "object")
    return typeof value === "string" ? `"${string(value)}"` : JSON.stringify(value);
  if (Array.isArray(value))
    return `[${space.after}${(value as JsonText[]).map((item) => write(item, space, string, order)).join(`${space.before},${space.after}`)}${space.before}]`;
  const record = value as Record<string, JsonText>;
  const members = order(Object.keys(record)).map(
    (key) =>
      `"${string(key)}"${space.before}:${space.after}${write(record[key] as JsonText, space, string, order)}`,
  );
  return `{${space.after}${members.join(`${space.before},${space.after}`)}${space.before}}`;
}

/** JSON.stringify's escaping of a string's inside, the plain form. */
const plain = (text: string) => JSON.stringify(text).slice(1, -1);

const WHITESPACE: readonly Writer[] = [
  ["pretty-printed with two spaces and line feeds", (value) => JSON.stringify(value, null, 2)],
  [
    "indented with tabs and CRLF line ends",
    (value) => JSON.stringify(value, null, "\t").replaceAll("\n", "\r\n"),
  ],
  ["with spaces around every : and ,", (value) => write(value, { before: " ", after: " " }, plain)],
  ["with whitespace before and after the text", (value) => ` \r\n\t${JSON.stringify(value)}\n \t`],
];

/** Most telling first: the fast profile sends only a class's first boundary. */
const ESCAPES: readonly Writer[] = [
  [
    "with system holding an escaped surrogate pair (\\ud83d\\uded2) and every other character \\u-escaped",
    (value) => write({ ...(value as Json), system: "shop 🛒" }, { before: "", after: "" }, escapeAll),
  ],
  [
    "with every character of every string \\u-escaped (astral ones as surrogate pairs)",
    (value) => write(value, { before: "", after: "" }, escapeAll),
  ],
  // The events hold no / of their own, so system carries one for the escape to act on.
  [
    "with system holding a / escaped as \\/",
    (value) => JSON.stringify({ ...(value as Json), system: "shop/backend" }).replaceAll("/", "\\/"),
  ],
  [
    "with system holding an escaped surrogate pair (\\ud83d\\uded2)",
    (value) =>
      JSON.stringify({ ...(value as Json), system: "shop" }).replace('"shop"', '"shop \\ud83d\\uded2"'),
  ],
  [
    "with type written \\u0063heckout where it is checkout",
    (value) => JSON.stringify(value).replace('"checkout"', '"\\u0063heckout"'),
  ],
];

const ORDERS: readonly Writer[] = [
  [
    "with every object's members in reverse order",
    (value) => write(value, { before: "", after: "" }, plain, (keys) => [...keys].reverse()),
  ],
  [
    "with every object's members sorted by name",
    (value) => write(value, { before: "", after: "" }, plain, (keys) => [...keys].sort()),
  ],
];

function grammarClass(
  name: string,
  description: string,
  writers: readonly Writer[],
  base: Json,
  events: fc.Arbitrary<Json>,
): InputClass<EventInput> {
  const make = (event: Json, [what, writeIt]: Writer): EventInput => ({
    what: `a valid event ${what}`,
    body: writeIt(event as JsonText, ""),
    contentType: JSON_TYPE,
  });
  return {
    field: "body",
    name,
    description,
    expect: "accepted",
    cover: writers.map((writer) => make(base, writer)),
    arbitrary: fc.tuple(events, fc.constantFrom(...writers)).map(([event, writer]) => make(event, writer)),
  };
}

/** The JSON grammar classes: whitespace, escapes, member order. */
export function jsonGrammarClasses(
  options: { readonly channels?: readonly string[] | undefined; readonly type?: string | undefined } = {},
): InputClass<EventInput>[] {
  const base = coverEvent(options);
  const events = plainEvents(options);
  return [
    grammarClass(
      "whitespace",
      "insignificant whitespace around every token: spaces, tabs, CR and LF (RFC 8259 §2)",
      WHITESPACE,
      base,
      events,
    ),
    grammarClass(
      "escapes",
      "strings written with escapes: \\uXXXX for any character, surrogate pairs, \\/ (RFC 8259 §7)",
      ESCAPES,
      base,
      events,
    ),
    grammarClass(
      "member-order",
      "members in another order (RFC 8259 §4: an object is an unordered collection)",
      ORDERS,
      base,
      events,
    ),
  ];
}
