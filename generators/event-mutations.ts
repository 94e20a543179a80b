import fc from "fast-check";
import { CHANNEL_PREFIX } from "../domain/index.ts";
import type { EventInput, Json, Path } from "./event-input.ts";
import { asJson, fieldClass, input, JSON_TYPE, named, valueAt, without, withValue } from "./event-input.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { JsonText } from "./json-text.ts";
import { RawNumber, RepeatedKeys, toJsonText } from "./json-text.ts";
import type { WideEventOptions } from "./wide-event.ts";
import { REFERENCE_STEM_SLOT, wideEventArbitrary } from "./wide-event.ts";

export type { EventInput } from "./event-input.ts";

/*
 * The mutation families start from plain valid events (plainEventArbitrary: ASCII values), so a failure they find
 * is the mutation's own, never one the wide valid space finds on its own (validInputArbitrary).
 */

const STRING_FIELDS = [
  ["type"],
  ["customer", "email"],
  ["channel", "id"],
  ["transaction", "reference"],
  ["transaction", "date"],
  ["system"],
  ["systemVersion"],
] as const satisfies readonly Path[];
const OBJECT_FIELDS = [["customer"], ["channel"], ["transaction"]] as const satisfies readonly Path[];
/** The fields production requires (shared/notes/real-service.md): `null` there can only mean "missing". */
const REQUIRED = new Set([
  "type",
  "customer",
  "customer.email",
  "channel",
  "channel.id",
  "transaction",
  "transaction.reference",
]);

/** Integers past 2^53, which a double cannot hold: the smallest shrinks to 2^53 + 1. */
const HUGE = 2n ** 53n;
const hugeInteger: fc.Arbitrary<RawNumber> = fc
  .tuple(fc.bigInt({ min: HUGE + 1n, max: 10n ** 30n }), fc.boolean())
  .map(([value, negative]) => new RawNumber(`${negative ? "-" : ""}${value}`));

/** Numbers that are not plain integers: fractions, exponents, -0, and a magnitude no double holds. */
const oddNumber: fc.Arbitrary<JsonText> = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(new RawNumber("1e400"), new RawNumber("-0"), new RawNumber("1.0"), new RawNumber("0.1e-7")),
);

/**
 * A value nested `depth` levels deep: `{"a":{"a":…}}`, `[[…]]` or both in turn. `depth` shrinks towards 1, so a
 * depth limit shows up as its first failing depth.
 */
export const deepValue: fc.Arbitrary<{ readonly depth: number; readonly value: JsonText }> = fc
  .tuple(fc.integer({ min: 1, max: 400 }), fc.constantFrom("object", "array", "mixed"))
  .map(([depth, shape]) => {
    let value: JsonText = 1;
    for (let level = depth; level >= 1; level--) {
      const asArray = shape === "array" || (shape === "mixed" && level % 2 === 0);
      value = asArray ? [value] : { a: value };
    }
    return { depth, value };
  });

/** Property names a spec-bound model does not expect: production's optional fields, odd and hostile names. */
const extraName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "firstName",
    "defaultLocale",
    "metadata",
    "products",
    "estimatedDeliveryDate",
    "mobile",
    "__proto__",
    "constructor",
    "$where",
    "",
    "name with spaces",
    "ключ",
  ),
  fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_"), minLength: 1, maxLength: 12 }),
);

const extraValue: fc.Arbitrary<JsonText> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonText>,
  fc.constant({ name: "Mug", sku: "MUG-1", gtin: "4006381333931" }),
);

/** Where an unknown property goes: the body or one of its documented objects. */
const place = fc.constantFrom<readonly string[]>([], ["customer"], ["channel"], ["transaction"]);

function withExtra(event: Json, at: readonly string[], name: string, value: JsonText): Json {
  const [first] = at;
  if (first === undefined) return { ...event, [name]: value };
  return { ...event, [first]: { ...(event[first] as Json), [name]: value } };
}

const where = (at: readonly string[]) => (at.length === 0 ? "the body" : at.join("."));

const HOSTILE = ["\u0000", "\u0007", "\u001b[31m", "\u0085", "\ud800", "\udfff", "\ufeff", "\u2028"];

/** Free text with what a store may choke on: C0 and C1 controls, a lone surrogate, a byte-order mark, NUL. */
const hostileText = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...HOSTILE))
  .map(([text, odd]) => `${text}${odd}`);

/** Dates the spec's words leave open: ISO 8601 forms other than RFC 3339's, a leap second, years before 1970. */
const OPEN_DATES = [
  "2016-12-31T23:59:60.000Z",
  "2026-01-02T24:00:00.000Z",
  "20260102T030405.678Z",
  "2026-W01-5T03:04:05.678Z",
  "2026-002T03:04:05.678Z",
  "2026-01-02T03:04:05,678Z",
  "2026-01-02T03:04:05.678901Z",
  "2026-01-02 03:04:05.678Z",
  "2026-01-02T03:04:05.678z",
  "+002026-01-02T03:04:05.678Z",
  "0000-01-01T00:00:00.000Z",
  "1969-12-31T23:59:59.999Z",
  "1000-06-15T12:00:00.000Z",
];

/** A class over plain events: its cover made from the fixed cover event, its search from drawn ones. */
function eventClass<V>(
  options: WideEventOptions,
  spec: Omit<Parameters<typeof fieldClass<V>>[1], "expect"> & { readonly expect?: InputExpectation },
): InputClass<EventInput> {
  return fieldClass(options, { expect: "answered", ...spec });
}

const OPTIONAL_PATHS: readonly Path[] = [["transaction", "date"], ["system"], ["systemVersion"]];

/** Values only the spec's letter allows: the bare prefix, empty strings, other types of event. */
const LETTER_VALUES: ReadonlyArray<readonly [Path, JsonText]> = [
  [["channel", "id"], CHANNEL_PREFIX],
  [["system"], ""],
  [["systemVersion"], ""],
  [["type"], ""],
  [["type"], "order"],
  [["type"], "CHECKOUT"],
  [["transaction", "reference"], ""],
];

const withReferenceSlot = (path: Path, text: string) =>
  named(path) === "transaction.reference" ? `${REFERENCE_STEM_SLOT}${text}` : text;

const repeatedKey = (event: Json, key: string): EventInput => {
  const members = Object.entries(event).flatMap(
    ([name, value]): Array<[string, JsonText]> =>
      name === key
        ? [
            [name, value],
            [name, value],
          ]
        : [[name, value]],
  );
  return input(`the key ${key} twice, with the same value (RFC 8259 §4)`, new RepeatedKeys(members));
};

/**
 * Inputs the spec is silent on, one class per kind: plain valid events with one thing the spec neither allows nor
 * forbids (an unknown property, a huge number, deep nesting, an absent or null optional field, a value only the
 * spec's letter allows, control characters, a long string, an ISO 8601 form beyond RFC 3339's, a repeated key),
 * and bodies that are not the spec's JSON event at all. A target may accept or refuse each; it must never fail on
 * one (5xx).
 */
export function silentClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  const unknown = (event: Json, [at, name, value]: readonly [readonly string[], string, JsonText]) =>
    input(`an unknown property ${JSON.stringify(name)} in ${where(at)}`, withExtra(event, at, name, value));
  return [
    eventClass(options, {
      field: "event",
      name: "unknown-property",
      description: "a property the spec does not name: production's optional fields, __proto__, odd names",
      cover: [
        [[], "metadata", { source: "harness", tags: ["a", 1] }],
        [[], "__proto__", { polluted: true }],
        [["customer"], "firstName", "Ada"],
        [["transaction"], "", "empty name"],
        [[], "products", [{ name: "Mug", sku: "MUG-1", gtin: "4006381333931" }]],
      ],
      values: fc.tuple(place, extraName, extraValue),
      make: unknown,
    }),
    eventClass(options, {
      field: "event",
      name: "deep-nesting",
      description: "an unknown property nested 32 to 400 levels deep",
      cover: [400, 128, 64, 32].map((depth) => nested(depth, "mixed")),
      values: deepValue,
      make: (event, deep) =>
        input(
          `an unknown property in the body nested ${deep.depth} levels deep`,
          withExtra(event, [], "a", deep.value),
        ),
    }),
    eventClass(options, {
      field: "event",
      name: "odd-number",
      description: "an unknown property holding an integer past 2^53, a fraction, an exponent, -0 or 1e400",
      cover: [
        new RawNumber("9007199254740993"),
        new RawNumber("-9007199254740993"),
        new RawNumber("1e400"),
        new RawNumber("-0"),
        new RawNumber("0.1e-7"),
      ] as JsonText[],
      values: fc.oneof(hugeInteger as fc.Arbitrary<JsonText>, oddNumber),
      make: (event, number) =>
        input(
          `an unknown property in the body holding the number ${toJsonText(number)}`,
          withExtra(event, [], "n", number),
        ),
    }),
    eventClass(options, {
      field: "event",
      name: "optional-absent",
      description: "without transaction.date, system or systemVersion (which fields are required: not shown)",
      cover: [OPTIONAL_PATHS, ...OPTIONAL_PATHS.map((path) => [path])],
      values: fc.subarray([...OPTIONAL_PATHS], { minLength: 1 }),
      make: (event, paths) =>
        input(
          `without ${paths.map(named).join(", ")} (which fields are required: not shown)`,
          paths.reduce((body, path) => without(body, path), event),
        ),
    }),
    eventClass(options, {
      field: "event",
      name: "optional-null",
      description: "transaction.date, system or systemVersion as null (an optional field, said absent)",
      cover: OPTIONAL_PATHS,
      values: fc.constantFrom(...OPTIONAL_PATHS),
      make: (event, path) =>
        input(`${named(path)} is null (an optional field, said absent)`, withValue(event, path, null)),
    }),
    eventClass(options, {
      field: "event",
      name: "letter-of-the-spec",
      description: 'values only the spec\'s letter allows: "chl-" alone, empty strings, other event types',
      cover: LETTER_VALUES,
      values: fc.constantFrom(...LETTER_VALUES),
      make: (event, [path, value]) =>
        input(`${named(path)} is ${JSON.stringify(value)}`, withValue(event, path, withSlot(path, value))),
    }),
    eventClass(options, {
      field: "event",
      name: "control-characters",
      description:
        "control characters, a lone surrogate, a byte-order mark in reference, system or systemVersion",
      cover: HOSTILE.map((odd, index): readonly [Path, string] => [
        FREE_TEXT[index % FREE_TEXT.length] as Path,
        `a${odd}`,
      ]),
      values: fc.tuple(fc.constantFrom<Path>(...FREE_TEXT), hostileText),
      make: (event, [path, text]) =>
        input(
          `${named(path)} holds control characters or a lone surrogate`,
          withValue(event, path, withReferenceSlot(path, text)),
        ),
    }),
    eventClass(options, {
      field: "event",
      name: "long-string",
      description: "a reference or system of 129 to 20,000 characters (size limits: not shown)",
      cover: [20_000, 4_096, 256, 129].flatMap(
        (length): Array<readonly [Path, number]> => [
          [["transaction", "reference"], length],
          [["system"], length],
        ],
      ),
      values: fc.tuple(
        fc.constantFrom<Path>(["transaction", "reference"], ["system"]),
        fc.integer({ min: 129, max: 20_000 }),
      ),
      make: (event, [path, length]) =>
        input(
          `${named(path)} is ${length} characters long (size limits: not shown)`,
          withValue(event, path, withReferenceSlot(path, "x".repeat(length))),
        ),
    }),
    eventClass(options, {
      field: "event",
      name: "open-date",
      description:
        "a transaction.date in an ISO 8601 form the spec's words leave open (week dates, 24:00, before 1970)",
      cover: OPEN_DATES,
      values: fc.constantFrom(...OPEN_DATES),
      make: (event, date) =>
        input(
          `transaction.date is ${date} (a form the spec's words leave open)`,
          withValue(event, ["transaction", "date"], date),
        ),
    }),
    eventClass(options, {
      field: "event",
      name: "repeated-key",
      description: "a key given twice with the same value (RFC 8259 §4)",
      cover: ["type", "system", "systemVersion"],
      values: fc.constantFrom("type", "system", "systemVersion"),
      make: repeatedKey,
    }),
    ...structureClasses(options),
  ];
}

const FREE_TEXT: readonly Path[] = [["transaction", "reference"], ["system"], ["systemVersion"]];

function withSlot(path: Path, value: JsonText): JsonText {
  return named(path) === "transaction.reference" && typeof value === "string"
    ? `${REFERENCE_STEM_SLOT}${value}`
    : value;
}

function nested(
  depth: number,
  shape: "object" | "array" | "mixed",
): { readonly depth: number; readonly value: JsonText } {
  let value: JsonText = 1;
  for (let level = depth; level >= 1; level--) {
    const asArray = shape === "array" || (shape === "mixed" && level % 2 === 0);
    value = asArray ? [value] : { a: value };
  }
  return { depth, value };
}

/** The silent inputs that are JSON events as one arbitrary (structureInputArbitrary has the others). */
export function silentInputArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  const jsonEvents = silentClasses(options).filter((cls) => cls.field === "event");
  return fc.oneof(...jsonEvents.map((cls) => cls.arbitrary));
}

const MEDIA_TYPES = [
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "application/xml",
  "multipart/form-data; boundary=eah",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  "application/json;charset=UTF-8",
  "application/vnd.api+json",
  "application/jsonx",
  "*/*",
  "",
];

/** Ways a body fails to be JSON, each applied to a valid event's text. */
const TEXT_BREAKS: ReadonlyArray<readonly [string, (text: string) => string]> = [
  ["cut short", (text) => text.slice(0, Math.max(1, Math.floor(text.length / 2)))],
  ["with a trailing comma", (text) => `${text.slice(0, -1)},}`],
  ["in single quotes", (text) => text.replaceAll('"', "'")],
  ["with a NaN", (text) => `${text.slice(0, -1)},"n":NaN}`],
  ["with a comment", (text) => `/* event */${text}`],
  ["with a byte-order mark", (text) => `\ufeff${text}`],
  ["with a raw control character in a string", (text) => text.replace('"checkout"', '"check\u0001out"')],
  ["with a broken escape", (text) => text.replace('"checkout"', '"check\\xout"')],
  ["empty", () => ""],
  ["whitespace only", () => " \n\t "],
  ["two events in a row", (text) => `${text}${text}`],
];

/**
 * Bodies that are not the spec's JSON event at all: wrong media types and malformed JSON. Whether each is refused
 * is the business of events.malformed-json and events.wrong-content-type; here it must never make the target fail
 * (5xx).
 */
export function structureClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  return [
    eventClass(options, {
      field: "Content-Type",
      name: "other-media-type",
      description: "a valid event sent as another media type, or without a Content-Type",
      cover: [...MEDIA_TYPES, undefined],
      values: fc.constantFrom(...MEDIA_TYPES, undefined),
      make: (event, type) => ({
        ...input(
          type === undefined
            ? "a valid event without a Content-Type"
            : `a valid event sent as ${JSON.stringify(type)}`,
          event,
        ),
        contentType: type,
      }),
    }),
    eventClass(options, {
      field: "body",
      name: "malformed-json",
      description: "a valid event's text cut short, with a trailing comma, single quotes, a comment, empty …",
      cover: TEXT_BREAKS,
      values: fc.constantFrom(...TEXT_BREAKS),
      make: (event, [name, edit]) => ({
        what: `malformed JSON: a valid event ${name}`,
        body: edit(toJsonText(event)),
        contentType: JSON_TYPE,
      }),
    }),
  ];
}

/** Bodies that are not JSON events at all, as one arbitrary (see structureClasses). */
export function structureInputArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  return fc.oneof(...structureClasses(options).map((cls) => cls.arbitrary));
}

/** A wrong value for a field: what it is, and how it is made from the field's own value. */
type Wrong = readonly [kind: string, make: (original: JsonText) => JsonText];

const WRONG_NUMBER: Wrong = ["a number", () => 0];
const WRONG_HUGE: Wrong = ["an integer past 2^53", () => new RawNumber("9007199254740993")];
const WRONG_BOOLEAN: Wrong = ["a boolean", () => true];
const WRONG_ARRAY: Wrong = ["an array", (original) => [original]];
const WRONG_OBJECT: Wrong = ["an object", (original) => ({ value: original })];
const WRONG_STRING: Wrong = ["a string", () => "x"];

/** Values of another JSON type than a string: numbers (huge, odd), booleans, arrays, objects, deep nesting. */
const notAString: fc.Arbitrary<Wrong> = fc.oneof(
  { withCrossShrink: true },
  fc.integer().map((n): Wrong => ["a number", () => n]),
  hugeInteger.map((n): Wrong => ["an integer past 2^53", () => n]),
  oddNumber.map((n): Wrong => ["a number that is not a plain integer", () => n]),
  fc.boolean().map((b): Wrong => ["a boolean", () => b]),
  fc.constant<Wrong>(WRONG_ARRAY),
  fc.constant<Wrong>(WRONG_OBJECT),
  deepValue.map((deep): Wrong => [`a value nested ${deep.depth} levels deep`, () => deep.value]),
);

/** Values of another JSON type than an object. */
const notAnObject: fc.Arbitrary<Wrong> = fc.oneof(
  { withCrossShrink: true },
  fc.string({ maxLength: 10 }).map((s): Wrong => ["a string", () => s]),
  fc.integer().map((n): Wrong => ["a number", () => n]),
  fc.boolean().map((b): Wrong => ["a boolean", () => b]),
  fc.constant<Wrong>(WRONG_ARRAY),
);

const NULL: Wrong = ["null", () => null];

/**
 * Events with one documented field of the wrong JSON type (spec, Resources: each field's Type), `null` included
 * where production requires a value (elsewhere null may mean "absent": see silentClasses), one class per kind of
 * field. Every target must refuse them (4xx).
 */
export function typeClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  const required = STRING_FIELDS.filter((path) => REQUIRED.has(named(path)));
  const optional = STRING_FIELDS.filter((path) => !REQUIRED.has(named(path)));
  const wrongly =
    (expected: string) =>
    (event: Json, [path, [kind, make]]: readonly [Path, Wrong]) =>
      input(
        `${named(path)} is ${kind} where the spec says ${expected}`,
        withValue(event, path, make(valueAt(event, path))),
      );
  const everyField = (paths: readonly Path[], wrongs: readonly Wrong[]) =>
    wrongs.flatMap((wrong, index) =>
      paths.map((path, at): readonly [Path, Wrong] => [
        path,
        (wrongs[(index + at) % wrongs.length] ?? wrong) as Wrong,
      ]),
    );
  return [
    eventClass(options, {
      field: "event",
      name: "required-string-wrong-type",
      description:
        "type, customer.email, channel.id or transaction.reference as a number, null, boolean, array or object",
      expect: "refused",
      cover: everyField(required, [WRONG_NUMBER, NULL, WRONG_HUGE, WRONG_BOOLEAN, WRONG_ARRAY, WRONG_OBJECT]),
      values: fc.tuple(fc.constantFrom<Path>(...required), fc.oneof(notAString, fc.constant(NULL))),
      make: wrongly("string"),
    }),
    eventClass(options, {
      field: "event",
      name: "optional-string-wrong-type",
      description: "transaction.date, system or systemVersion as a number, boolean, array or object",
      expect: "refused",
      cover: everyField(optional, [WRONG_NUMBER, WRONG_BOOLEAN, WRONG_ARRAY, WRONG_OBJECT]),
      values: fc.tuple(fc.constantFrom<Path>(...optional), notAString),
      make: wrongly("string"),
    }),
    eventClass(options, {
      field: "event",
      name: "object-wrong-type",
      description: "customer, channel or transaction as a string, number, boolean, array or null",
      expect: "refused",
      cover: everyField(OBJECT_FIELDS, [NULL, WRONG_STRING, WRONG_NUMBER, WRONG_ARRAY]),
      values: fc.tuple(fc.constantFrom<Path>(...OBJECT_FIELDS), fc.oneof(notAnObject, fc.constant(NULL))),
      make: wrongly("object"),
    }),
    eventClass(options, {
      field: "event",
      name: "repeated-key-wrong-type",
      description: "the key type twice, a number then a boolean (wrong whichever a parser keeps)",
      expect: "refused",
      cover: [[1, true] as const],
      values: fc.tuple(fc.integer(), fc.boolean()),
      make: (event, [n, flag]) => {
        // A key given twice with two wrong values is wrong however a parser reads it (first or last wins).
        const members = Object.entries(event).flatMap(
          ([name, value]): Array<[string, JsonText]> =>
            name === "type"
              ? [
                  [name, n],
                  [name, flag],
                ]
              : [[name, value]],
        );
        return input(
          "the key type twice, a number then a boolean (wrong whichever wins)",
          new RepeatedKeys(members),
        );
      },
    }),
  ];
}

/** The type violations as one arbitrary (see typeClasses). */
export function typeViolationArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  return fc.oneof({ withCrossShrink: true }, ...typeClasses(options).map((cls) => cls.arbitrary));
}

const NON_ASCII_DIGITS = [..."٠١٢٣٤٥٦٧٨٩"];

type DateBreak = readonly [name: string, edit: (date: string) => string];

/** The ways a date breaks the spec's format, by kind: each kind is a class, each way one of its boundaries. */
const DATE_BREAKS: ReadonlyArray<readonly [name: string, description: string, breaks: readonly DateBreak[]]> =
  [
    [
      "precision",
      "no milliseconds, or one or two fractional digits",
      [
        ["without milliseconds", (d) => `${d.slice(0, 19)}Z`],
        ["with one fractional digit", (d) => `${d.slice(0, 21)}Z`],
        ["with two fractional digits", (d) => `${d.slice(0, 22)}Z`],
      ],
    ],
    [
      "designator",
      "an offset (+00:00 included) or no designator instead of Z",
      [
        ["with the offset +00:00 instead of Z", (d) => `${d.slice(0, 23)}+00:00`],
        ["with an offset", (d) => `${d.slice(0, 23)}+01:00`],
        ["with a negative offset", (d) => `${d.slice(0, 23)}-05:30`],
        ["without a designator (local time)", (d) => d.slice(0, 23)],
        ["without milliseconds, with an offset", (d) => `${d.slice(0, 19)}+02:00`],
      ],
    ],
    [
      "partial",
      "the date or the time alone",
      [
        ["date only", (d) => d.slice(0, 10)],
        ["time only", (d) => d.slice(11)],
      ],
    ],
    [
      "impossible",
      "a day, month, hour or minute that does not exist",
      [
        ["on February 30", (d) => `${d.slice(0, 4)}-02-30${d.slice(10)}`],
        ["on April 31", (d) => `${d.slice(0, 4)}-04-31${d.slice(10)}`],
        ["in month 13", (d) => `${d.slice(0, 4)}-13${d.slice(7)}`],
        ["in month 00", (d) => `${d.slice(0, 4)}-00${d.slice(7)}`],
        ["on day 00", (d) => `${d.slice(0, 7)}-00${d.slice(10)}`],
        ["at hour 25", (d) => `${d.slice(0, 11)}25${d.slice(13)}`],
        ["at minute 60", (d) => `${d.slice(0, 14)}60${d.slice(16)}`],
      ],
    ],
    [
      "other-format",
      "digits beyond ASCII, Unix milliseconds, an RFC 7231 date, padding, empty",
      [
        [
          "in Arabic-Indic digits",
          (d) => d.replace(/[0-9]/g, (digit) => NON_ASCII_DIGITS[Number(digit)] as string),
        ],
        ["as Unix milliseconds in a string", (d) => String(Date.parse(d))],
        ["in RFC 7231 form", (d) => new Date(d).toUTCString()],
        ["with leading and trailing spaces", (d) => ` ${d} `],
        ["empty", () => ""],
      ],
    ],
  ];

/**
 * transaction.date in a form the spec rules out on every reading of "ISO 8601 format with milliseconds and a UTC
 * designator", one class per kind: the precision, the designator, a date or time alone, a day or time that does
 * not exist, other formats. Each is made from the event's own date, so it stays realistic. Every target must
 * refuse them (4xx).
 */
export function dateClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  return DATE_BREAKS.map(([name, description, breaks]) =>
    eventClass(options, {
      field: "transaction.date",
      name,
      description,
      expect: "refused",
      cover: breaks,
      values: fc.constantFrom(...breaks),
      make: (event, [what, edit]) => {
        const date = edit(String(valueAt(event, ["transaction", "date"])));
        return input(
          `transaction.date ${what}: ${JSON.stringify(date)}`,
          withValue(event, ["transaction", "date"], date),
        );
      },
    }),
  );
}

/** The date violations as one arbitrary (see dateClasses). */
export function dateViolationArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  return fc.oneof(...dateClasses(options).map((cls) => cls.arbitrary));
}

/** Valid events from the wide space (wideEventArbitrary), as inputs. */
export function validInputArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  return wideEventArbitrary(options).map((event) => input("a valid event", asJson(event)));
}
