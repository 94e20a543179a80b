import fc from "fast-check";
import type { EventInput, Json } from "./event-input.ts";
import { asJson, coverEvent, fieldClass, input, withValue } from "./event-input.ts";
import type { InputClass } from "./input-class.ts";
import type { WideEventOptions } from "./wide-event.ts";
import {
  BOUNDARY_DATES,
  REFERENCE_STEM_SLOT,
  referenceTail,
  wideDate,
  wideEmail,
  wideEventArbitrary,
  wideSystem,
  wideSystemVersion,
} from "./wide-event.ts";

/** A reference tail of 100 characters, the longest the harness takes as surely valid, with what breaks quoting. */
const LONG_TAIL = `'"\\\`😀é ${"x".repeat(93)}`;

/**
 * Valid events, one class per documented field drawn wide (and one with every field wide at once): each must be
 * accepted. Each class's boundaries come first: a `+` and a letter beyond ASCII in one local part, a 100-character
 * reference with quotes and an emoji, an emoji in system, the calendar's boundary dates.
 */
export function validClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  const valid =
    (what: string) => (event: Json, value: string, path: readonly [string, string] | readonly [string]) =>
      input(`a valid event (${what})`, withValue(event, path, value));
  return [
    fieldClass(options, {
      field: "customer.email",
      name: "wide-address",
      description: "local parts with +, dots, apostrophes and letters beyond ASCII (RFC 5322, RFC 6532)",
      expect: "accepted",
      cover: ["o'brien+tag.é@example.com", "a.b.c@example.org", "Jörg@example.net"],
      values: wideEmail,
      make: (event, email) => valid("customer.email drawn wide")(event, email, ["customer", "email"]),
    }),
    fieldClass(options, {
      field: "transaction.reference",
      name: "wide-text",
      description: "up to 100 characters: quotes, backslashes, letters beyond ASCII, emoji, combining marks",
      expect: "accepted",
      cover: [LONG_TAIL, "'", "\\", "e\u0301"],
      values: referenceTail,
      make: (event, tail) =>
        valid("transaction.reference drawn wide")(event, `${REFERENCE_STEM_SLOT}${tail}`, [
          "transaction",
          "reference",
        ]),
    }),
    fieldClass(options, {
      field: "system",
      name: "wide-text",
      description: "product names and free text with quotes, letters beyond ASCII and emoji",
      expect: "accepted",
      cover: ["Kassensystem Süd 🛒 'v2'", "レジ"],
      values: wideSystem,
      make: (event, system) => valid("system drawn wide")(event, system, ["system"]),
    }),
    fieldClass(options, {
      field: "systemVersion",
      name: "wide-version",
      description: "semantic and calendar versions with pre-release and build parts, or free text",
      expect: "accepted",
      cover: ["2030.2030.2030-alpha+exp.sha.5114f85", "v1 🚚"],
      values: wideSystemVersion,
      make: (event, version) => valid("systemVersion drawn wide")(event, version, ["systemVersion"]),
    }),
    fieldClass(options, {
      field: "transaction.date",
      name: "wide-date",
      description: "any instant from 1970 to 9999 in the spec's form, leap days and year ends among them",
      expect: "accepted",
      cover: BOUNDARY_DATES,
      values: wideDate,
      make: (event, date) => valid("transaction.date drawn wide")(event, date, ["transaction", "date"]),
    }),
    {
      field: "event",
      name: "every-field-wide",
      description: "every documented field drawn wide at once",
      expect: "accepted",
      cover: [input("a valid event", coverEvent(options))],
      arbitrary: wideEventArbitrary(options).map((event) => input("a valid event", asJson(event))),
    },
  ];
}

/** Every valid class's arbitrary as one (the search of a single run draws from each class on its own). */
export const anyValid = (options: WideEventOptions = {}): fc.Arbitrary<EventInput> =>
  fc.oneof(...validClasses(options).map((cls) => cls.arbitrary));
