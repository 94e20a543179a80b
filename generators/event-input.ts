import fc from "fast-check";
import type { CheckoutEvent } from "../domain/index.ts";
import { CHANNEL_PREFIX } from "../domain/index.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { JsonText } from "./json-text.ts";
import { toJsonText } from "./json-text.ts";
import type { WideEventOptions } from "./wide-event.ts";
import { plainEventArbitrary, REFERENCE_STEM_SLOT } from "./wide-event.ts";

/** How a body's text becomes bytes: UTF-8 (the default), UTF-16 in either byte order, or `latin1`: each code unit a byte. */
export type BodyEncoding = "utf-8" | "utf-16le" | "utf-16be" | "latin1";

/** Where a sender puts the access token in an `authorization` form: `bearer @@EH_TOKEN@@`. */
export const TOKEN_SLOT = "@@EH_TOKEN@@";

/** One body to send to POST /events, as the harness means it: the exact text, its media type, and what it is. */
export interface EventInput {
  /** What makes this input what it is, for a report: "customer.email is 0 (a number where a string belongs)". */
  readonly what: string;
  /** The body text; REFERENCE_STEM_SLOT marks where the sender's unique stem goes. */
  readonly body: string;
  /** The Content-Type header; undefined sends none. */
  readonly contentType: string | undefined;
  /** Further request headers (Accept, X-Request-Id …), sent as given. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The Authorization header, TOKEN_SLOT where the token goes; default `Bearer <token>`. */
  readonly authorization?: string;
  /** How the body's text becomes bytes; default UTF-8. */
  readonly encoding?: BodyEncoding;
}

export const JSON_TYPE = "application/json";

export type Json = { [key: string]: JsonText };
export type Path = readonly [string] | readonly [string, string];

export const asJson = (event: CheckoutEvent): Json => event as unknown as Json;
export const named = (path: Path) => path.join(".");

export function input(
  what: string,
  value: JsonText,
  contentType: string | undefined = JSON_TYPE,
): EventInput {
  return { what, body: toJsonText(value), contentType };
}

/** A copy of `event` with the value at `path` replaced, key order kept. */
export function withValue(event: Json, path: Path, value: JsonText): Json {
  const [first, second] = path;
  if (second === undefined) return { ...event, [first]: value };
  return { ...event, [first]: { ...(event[first] as Json), [second]: value } };
}

/** A copy of `event` without the member at `path`. */
export function without(event: Json, path: Path): Json {
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

export function valueAt(event: Json, path: Path): JsonText {
  const [first, second] = path;
  const outer = event[first] as JsonText;
  return second === undefined ? outer : ((outer as Json)[second] as JsonText);
}

/**
 * The plain event every coverage input starts from: fixed, so a class's boundaries are the same in every run
 * whatever the seed; its reference holds the sender's slot, so each input still gets a reference of its own.
 */
export function coverEvent(options: WideEventOptions = {}): Json {
  return {
    type: options.type ?? "checkout",
    customer: { email: "customer@example.com" },
    channel: { id: options.channels?.[0] ?? `${CHANNEL_PREFIX}harness-cover` },
    transaction: { reference: `${REFERENCE_STEM_SLOT}cover`, date: "2026-01-02T03:04:05.678Z" },
    system: "shop-backend",
    systemVersion: "1.0.0",
  };
}

/** Plain valid events as JSON, the base every mutation's search starts from. */
export const plainEvents = (options: WideEventOptions = {}): fc.Arbitrary<Json> =>
  plainEventArbitrary(options).map(asJson);

/** A class of events that change one field: `change(event, value)` for each cover value and each drawn one. */
export function fieldClass<V>(
  options: WideEventOptions,
  spec: {
    readonly field: string;
    readonly name: string;
    readonly description: string;
    readonly expect: InputExpectation;
    readonly cover: readonly V[];
    readonly values: fc.Arbitrary<V>;
    readonly make: (event: Json, value: V) => EventInput;
  },
): InputClass<EventInput> {
  const base = coverEvent(options);
  return {
    field: spec.field,
    name: spec.name,
    description: spec.description,
    expect: spec.expect,
    cover: spec.cover.map((value) => spec.make(base, value)),
    arbitrary: fc.tuple(plainEvents(options), spec.values).map(([event, value]) => spec.make(event, value)),
  };
}
