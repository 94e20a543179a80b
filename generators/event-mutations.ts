import fc from "fast-check";
import type { CheckoutEvent } from "../domain/index.ts";
import { CHANNEL_PREFIX } from "../domain/index.ts";
import type { JsonText } from "./json-text.ts";
import { RawNumber, RepeatedKeys, toJsonText } from "./json-text.ts";
import type { WideEventOptions } from "./wide-event.ts";
import { plainEventArbitrary, REFERENCE_STEM_SLOT, wideEventArbitrary } from "./wide-event.ts";

/*
 * The mutation families start from plain valid events (plainEventArbitrary: ASCII values), so a failure they find
 * is the mutation's own, never one the wide valid space finds on its own (validInputArbitrary).
 */

/** One body to send to POST /events, as the harness means it: the exact text, its media type, and what it is. */
export interface EventInput {
  /** What makes this input what it is, for a report: "customer.email is 0 (a number where a string belongs)". */
  readonly what: string;
  /** The body text; REFERENCE_STEM_SLOT marks where the sender's unique stem goes. */
  readonly body: string;
  /** The Content-Type header; undefined sends none. */
  readonly contentType: string | undefined;
}

const JSON_TYPE = "application/json";

type Json = { [key: string]: JsonText };
type Path = readonly [string] | readonly [string, string];

const asJson = (event: CheckoutEvent): Json => event as unknown as Json;

function input(what: string, value: JsonText, contentType: string | undefined): EventInput {
  return { what, body: toJsonText(value), contentType };
}

/** A copy of `event` with the value at `path` replaced, key order kept. */
function withValue(event: Json, path: Path, value: JsonText): Json {
  const [first, second] = path;
  if (second === undefined) return { ...event, [first]: value };
  return { ...event, [first]: { ...(event[first] as Json), [second]: value } };
}

/** A copy of `event` without the member at `path`. */
function without(event: Json, path: Path): Json {
  const [first, second] = path;
  const copy = { ...event };
  if (second === undefined) delete copy[first];
  else {
    const inner = { ...(copy[first] as Json) };
    delete inner[second];
    copy[first] = inner;
  }
  return copy;
}

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

const named = (path: Path) => path.join(".");

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

/** Free text with what a store may choke on: C0 and C1 controls, a lone surrogate, a byte-order mark, NUL. */
const hostileText = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.constantFrom("\u0000", "\u0007", "\u001b[31m", "\u0085", "\ud800", "\udfff", "\ufeff", "\u2028"),
  )
  .map(([text, odd]) => `${text}${odd}`);

/** Dates the spec's words leave open: ISO 8601 forms other than RFC 3339's, a leap second, years before 1970. */
const openDates = fc.constantFrom(
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
);

/**
 * Inputs the spec is silent on: plain valid events with one thing the spec neither allows nor forbids (an unknown
 * property, a huge number, deep nesting, an absent or null optional field, a value only the spec's letter allows,
 * control characters, a long string, an ISO 8601 form beyond RFC 3339's, a repeated key). A target may accept or
 * refuse each; it must never fail on one (5xx).
 */
export function silentInputArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  const events = plainEventArbitrary(options).map(asJson);
  return fc.oneof(
    { withCrossShrink: true },
    fc
      .tuple(events, place, extraName, extraValue)
      .map(([event, at, name, value]) =>
        input(
          `an unknown property ${JSON.stringify(name)} in ${where(at)}`,
          withExtra(event, at, name, value),
          JSON_TYPE,
        ),
      ),
    fc
      .tuple(events, place, extraName, deepValue)
      .map(([event, at, name, deep]) =>
        input(
          `an unknown property in ${where(at)} nested ${deep.depth} levels deep`,
          withExtra(event, at, name || "a", deep.value),
          JSON_TYPE,
        ),
      ),
    fc
      .tuple(events, place, extraName, fc.oneof(hugeInteger, oddNumber))
      .map(([event, at, name, number]) =>
        input(
          `an unknown property in ${where(at)} holding the number ${toJsonText(number)}`,
          withExtra(event, at, name || "n", number),
          JSON_TYPE,
        ),
      ),
    fc
      .tuple(
        events,
        fc.subarray([["transaction", "date"], ["system"], ["systemVersion"]] as Path[], { minLength: 1 }),
      )
      .map(([event, paths]) =>
        input(
          `without ${paths.map(named).join(", ")} (which fields are required: not shown)`,
          paths.reduce((body, path) => without(body, path), event),
          JSON_TYPE,
        ),
      ),
    fc
      .tuple(events, fc.constantFrom<Path>(["transaction", "date"], ["system"], ["systemVersion"]))
      .map(([event, path]) =>
        input(
          `${named(path)} is null (an optional field, said absent)`,
          withValue(event, path, null),
          JSON_TYPE,
        ),
      ),
    fc
      .tuple(
        events,
        fc.constantFrom<readonly [Path, JsonText]>(
          [["channel", "id"], CHANNEL_PREFIX],
          [["system"], ""],
          [["systemVersion"], ""],
          [["type"], ""],
          [["type"], "order"],
          [["type"], "CHECKOUT"],
          [["transaction", "reference"], ""],
        ),
      )
      .map(([event, [path, value]]) =>
        input(`${named(path)} is ${JSON.stringify(value)}`, withValue(event, path, value), JSON_TYPE),
      ),
    fc
      .tuple(
        events,
        fc.constantFrom<Path>(["transaction", "reference"], ["system"], ["systemVersion"]),
        hostileText,
      )
      .map(([event, path, text]) => {
        const value = named(path) === "transaction.reference" ? `${REFERENCE_STEM_SLOT}${text}` : text;
        return input(
          `${named(path)} holds control characters or a lone surrogate`,
          withValue(event, path, value),
          JSON_TYPE,
        );
      }),
    fc
      .tuple(
        events,
        fc.constantFrom<Path>(["transaction", "reference"], ["system"]),
        fc.integer({ min: 129, max: 20_000 }),
      )
      .map(([event, path, length]) => {
        const long = "x".repeat(length);
        const value = named(path) === "transaction.reference" ? `${REFERENCE_STEM_SLOT}${long}` : long;
        return input(
          `${named(path)} is ${length} characters long (size limits: not shown)`,
          withValue(event, path, value),
          JSON_TYPE,
        );
      }),
    fc
      .tuple(events, openDates)
      .map(([event, date]) =>
        input(
          `transaction.date is ${date} (a form the spec's words leave open)`,
          withValue(event, ["transaction", "date"], date),
          JSON_TYPE,
        ),
      ),
    fc.tuple(events, fc.constantFrom<Path>(["type"], ["system"], ["systemVersion"])).map(([event, path]) => {
      const [key] = path;
      const members = Object.entries(event).flatMap(
        ([name, value]): Array<[string, JsonText]> =>
          name === key
            ? [
                [name, value],
                [name, value],
              ]
            : [[name, value]],
      );
      return input(
        `the key ${key} twice, with the same value (RFC 8259 §4)`,
        new RepeatedKeys(members),
        JSON_TYPE,
      );
    }),
  );
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

/** A body the spec's JSON event is not: another top-level value, an event list, the event serialised twice. */
const NOT_OBJECTS: ReadonlyArray<readonly [string, (event: Json) => JsonText]> = [
  ["null", () => null],
  ["true", () => true],
  ["a number", () => 1],
  ["a string", () => "checkout"],
  ["an array of the event", (event) => [event]],
  ["the event serialised twice (a JSON string)", (event) => toJsonText(event)],
];

/**
 * Bodies that are not the spec's JSON event at all: wrong media types, malformed JSON, other top-level values.
 * Whether each is refused is the business of events.malformed-json and events.wrong-content-type; here it must
 * never make the target fail (5xx).
 */
export function structureInputArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  const events = plainEventArbitrary(options).map(asJson);
  return fc.oneof(
    { withCrossShrink: true },
    fc
      .tuple(events, fc.constantFrom(...MEDIA_TYPES, undefined))
      .map(([event, type]) =>
        input(
          type === undefined
            ? "a valid event without a Content-Type"
            : `a valid event sent as ${JSON.stringify(type)}`,
          event,
          type,
        ),
      ),
    fc.tuple(events, fc.constantFrom(...TEXT_BREAKS)).map(([event, [name, edit]]) => ({
      what: `malformed JSON: a valid event ${name}`,
      body: edit(toJsonText(event)),
      contentType: JSON_TYPE,
    })),
    fc
      .tuple(events, fc.constantFrom(...NOT_OBJECTS))
      .map(([event, [name, make]]) => input(`a body that is ${name}`, make(event), JSON_TYPE)),
  );
}

/** A wrong value for a field: what it is, and how it is made from the field's own value. */
type Wrong = readonly [kind: string, make: (original: JsonText) => JsonText];

/** Values of another JSON type than a string: numbers (huge, odd), booleans, arrays, objects, deep nesting. */
const notAString: fc.Arbitrary<Wrong> = fc.oneof(
  { withCrossShrink: true },
  fc.integer().map((n): Wrong => ["a number", () => n]),
  hugeInteger.map((n): Wrong => ["an integer past 2^53", () => n]),
  oddNumber.map((n): Wrong => ["a number that is not a plain integer", () => n]),
  fc.boolean().map((b): Wrong => ["a boolean", () => b]),
  fc.constant<Wrong>(["an array", (original) => [original]]),
  fc.constant<Wrong>(["an object", (original) => ({ value: original })]),
  deepValue.map((deep): Wrong => [`a value nested ${deep.depth} levels deep`, () => deep.value]),
);

/** Values of another JSON type than an object. */
const notAnObject: fc.Arbitrary<Wrong> = fc.oneof(
  { withCrossShrink: true },
  fc.string({ maxLength: 10 }).map((s): Wrong => ["a string", () => s]),
  fc.integer().map((n): Wrong => ["a number", () => n]),
  fc.boolean().map((b): Wrong => ["a boolean", () => b]),
  fc.constant<Wrong>(["an array", (original) => [original]]),
);

const NULL: Wrong = ["null", () => null];

/**
 * Events with one documented field of the wrong JSON type (spec, Resources: each field's Type), `null` included
 * where production requires a value (elsewhere null may mean "absent": see silentInputArbitrary). Every target
 * must refuse them (4xx).
 */
export function typeViolationArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  const events = plainEventArbitrary(options).map(asJson);
  const required = STRING_FIELDS.filter((path) => REQUIRED.has(named(path)));
  const optional = STRING_FIELDS.filter((path) => !REQUIRED.has(named(path)));
  const wrongly =
    (expected: string) =>
    ([event, path, [kind, make]]: readonly [Json, Path, Wrong]) =>
      input(
        `${named(path)} is ${kind} where the spec says ${expected}`,
        withValue(event, path, make(valueAt(event, path))),
        JSON_TYPE,
      );
  const requiredString = fc
    .tuple(events, fc.constantFrom<Path>(...required), fc.oneof(notAString, fc.constant(NULL)))
    .map(wrongly("string"));
  const optionalString = fc
    .tuple(events, fc.constantFrom<Path>(...optional), notAString)
    .map(wrongly("string"));
  const objectField = fc
    .tuple(events, fc.constantFrom<Path>(...OBJECT_FIELDS), fc.oneof(notAnObject, fc.constant(NULL)))
    .map(wrongly("object"));
  // A key given twice with two wrong values is wrong however a parser reads it (first or last wins).
  const repeated = fc.tuple(events, fc.integer(), fc.boolean()).map(([event, n, flag]) => {
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
      JSON_TYPE,
    );
  });
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: requiredString, weight: 4 },
    { arbitrary: optionalString, weight: 3 },
    { arbitrary: objectField, weight: 2 },
    { arbitrary: repeated, weight: 1 },
  );
}

function valueAt(event: Json, path: Path): JsonText {
  const [first, second] = path;
  const outer = event[first] as JsonText;
  return second === undefined ? outer : ((outer as Json)[second] as JsonText);
}

const NON_ASCII_DIGITS = [..."٠١٢٣٤٥٦٧٨٩"];

/**
 * transaction.date in a form the spec rules out on every reading of "ISO 8601 format with milliseconds and a UTC
 * designator": without milliseconds or with fewer digits, an offset or no designator instead of Z, date or time
 * alone, a day or time that does not exist, digits beyond ASCII, other formats. Each is made from the event's own
 * date, so it stays realistic. Every target must refuse them (4xx).
 */
export function dateViolationArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  const events = plainEventArbitrary(options).map(asJson);
  const breaks: ReadonlyArray<readonly [string, (date: string) => string]> = [
    ["without milliseconds", (d) => `${d.slice(0, 19)}Z`],
    ["with one fractional digit", (d) => `${d.slice(0, 21)}Z`],
    ["with two fractional digits", (d) => `${d.slice(0, 22)}Z`],
    ["with the offset +00:00 instead of Z", (d) => `${d.slice(0, 23)}+00:00`],
    ["with an offset", (d) => `${d.slice(0, 23)}+01:00`],
    ["with a negative offset", (d) => `${d.slice(0, 23)}-05:30`],
    ["without a designator (local time)", (d) => d.slice(0, 23)],
    ["without milliseconds, with an offset", (d) => `${d.slice(0, 19)}+02:00`],
    ["date only", (d) => d.slice(0, 10)],
    ["time only", (d) => d.slice(11)],
    ["on February 30", (d) => `${d.slice(0, 4)}-02-30${d.slice(10)}`],
    ["on April 31", (d) => `${d.slice(0, 4)}-04-31${d.slice(10)}`],
    ["in month 13", (d) => `${d.slice(0, 4)}-13${d.slice(7)}`],
    ["in month 00", (d) => `${d.slice(0, 4)}-00${d.slice(7)}`],
    ["on day 00", (d) => `${d.slice(0, 7)}-00${d.slice(10)}`],
    ["at hour 25", (d) => `${d.slice(0, 11)}25${d.slice(13)}`],
    ["at minute 60", (d) => `${d.slice(0, 14)}60${d.slice(16)}`],
    [
      "in Arabic-Indic digits",
      (d) => d.replace(/[0-9]/g, (digit) => NON_ASCII_DIGITS[Number(digit)] as string),
    ],
    ["as Unix milliseconds in a string", (d) => String(Date.parse(d))],
    ["in RFC 7231 form", (d) => new Date(d).toUTCString()],
    ["with leading and trailing spaces", (d) => ` ${d} `],
    ["empty", () => ""],
  ];
  return fc.tuple(events, fc.constantFrom(...breaks)).map(([event, [name, edit]]) => {
    const date = edit(String(valueAt(event, ["transaction", "date"])));
    return input(
      `transaction.date ${name}: ${JSON.stringify(date)}`,
      withValue(event, ["transaction", "date"], date),
      JSON_TYPE,
    );
  });
}

/** Valid events from the wide space (wideEventArbitrary), as inputs. */
export function validInputArbitrary(options: WideEventOptions = {}): fc.Arbitrary<EventInput> {
  return wideEventArbitrary(options).map((event) => input("a valid event", asJson(event), JSON_TYPE));
}
