import fc from "fast-check";
import type { CheckoutEvent } from "../domain/index.ts";
import { CHANNEL_PREFIX } from "../domain/index.ts";
import { EXAMPLE_EMAIL_DOMAINS } from "./example-email.ts";

/**
 * Where a sender puts its own unique stem in front of a generated reference: every sent event needs a reference
 * of its own (production: "must be unique"), and the generated part must stay as drawn.
 */
export const REFERENCE_STEM_SLOT = "@@EH_STEM@@";

/** The longest generated part of a reference, in characters as a user types them (an emoji with a skin tone is one). */
export const MAX_REFERENCE_TAIL = 100;
/** A local part holds at most 64 octets (RFC 5321 §4.5.3.1.1). */
const MAX_LOCAL_PART_OCTETS = 64;

/** Letters beyond ASCII that real names carry, each in the Basic Multilingual Plane (RFC 6532 addresses take them). */
const NAME_LETTERS = [..."éèêëàâäçñöøåæœßüúíóőłšžčğıÉÜØÅÆΔδλΩωЖжДдЯя李王用户アイウ한글ابتשלוםनमस"];
/** Astral characters and sequences: emoji as users type them (flags, skin tones, ZWJ families). */
const EMOJI = ["😀", "🎉", "🛒", "👍🏽", "🇩🇪", "👨‍👩‍👧", "🚚", "💳"];
/** What breaks quoting: SQL and shell quotes, escapes, markup and wildcards. */
const QUOTES = ["'", '"', "\\", "`"];
const PUNCTUATION = [..."-_./#:;%<>&*?,()[]{}|~^$!@=+ "];
const ASCII_ALNUM = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"];
/** Combining sequences: the same letter two ways (NFC and NFD). */
const COMBINING = ["e\u0301", "a\u0308", "n\u0303"];

const alnum = fc.constantFrom(...ASCII_ALNUM);

/** One character of free text (references, system names): mostly ASCII, often quotes, letters beyond ASCII, emoji. */
const textUnit: fc.Arbitrary<string> = fc.oneof(
  // Shrinking may cross to the first arm: a minimal input reads "a", not the first emoji.
  { withCrossShrink: true },
  { arbitrary: alnum, weight: 10 },
  { arbitrary: fc.constantFrom(...PUNCTUATION), weight: 2 },
  { arbitrary: fc.constantFrom(...QUOTES), weight: 2 },
  { arbitrary: fc.constantFrom(...NAME_LETTERS), weight: 2 },
  { arbitrary: fc.constantFrom(...EMOJI), weight: 2 },
  { arbitrary: fc.constantFrom(...COMBINING), weight: 1 },
);

/**
 * One character of a local part: ASCII first (it shrinks there), then `+`, `-`, `_`, `'`, letters beyond ASCII and
 * the dot that separates dot-atoms.
 */
const localUnit: fc.Arbitrary<string> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: alnum, weight: 10 },
  { arbitrary: fc.constantFrom("+", "-", "_", "'"), weight: 2 },
  { arbitrary: fc.constantFrom(...NAME_LETTERS), weight: 3 },
  { arbitrary: fc.constant("."), weight: 1 },
);

function octets(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Makes a dot-atom of the drawn characters (RFC 5322 §3.4.1: no leading, trailing or doubled dot) that fits its 64
 * octets, dropping whole characters from the end.
 */
function dotAtom(drawn: string): string {
  const characters = [...drawn.replace(/\.{2,}/g, ".").replace(/^\.+/, "")];
  while (octets(characters.join("")) > MAX_LOCAL_PART_OCTETS) characters.pop();
  return characters.join("").replace(/\.+$/, "") || "a";
}

/**
 * An address the spec's "E-mail address" takes on any reading: a dot-atom local part with dots, `+` tags,
 * apostrophes and letters beyond ASCII (RFC 5322, RFC 6532), within 64 octets, at an RFC 2606 example domain so
 * no mail ever reaches anyone. The local part is one string, dots among its characters, so shrinking can drop any
 * character: a failure shrinks to the character that breaks a target and at most one more, whatever the seed.
 */
export const wideEmail: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ unit: localUnit, minLength: 1, maxLength: 38 }),
    fc.constantFrom(...EXAMPLE_EMAIL_DOMAINS),
  )
  .map(([local, domain]) => `${dotAtom(local)}@${domain}`);

/** Days a date parser gets wrong: epoch, leap days, month and year ends, 2^31 seconds, the last day ISO years hold. */
export const BOUNDARY_DATES = [
  "1970-01-01T00:00:00.000Z",
  "2000-02-29T12:00:00.000Z",
  "2024-02-29T23:59:59.999Z",
  "2100-02-28T00:00:00.000Z",
  "2026-12-31T23:59:59.999Z",
  "2027-01-01T00:00:00.000Z",
  "2038-01-19T03:14:08.000Z",
  "9999-12-31T23:59:59.999Z",
];
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A transaction date in the spec's form (milliseconds, Z) from 1970 to 9999, boundaries often: what every
 * reading of "ISO 8601 with milliseconds and a UTC designator" takes. Earlier years, which some stores cannot
 * hold, are left to the inputs the spec is silent on.
 */
export const wideDate: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.integer({ min: EARLIEST, max: LATEST }).map((ms) => new Date(ms).toISOString()),
    weight: 3,
  },
  { arbitrary: fc.constantFrom(...BOUNDARY_DATES), weight: 1 },
);

/** The generated part of a reference: up to MAX_REFERENCE_TAIL characters, quotes, unicode and emoji included. */
export const referenceTail: fc.Arbitrary<string> = fc.string({
  unit: textUnit,
  maxLength: MAX_REFERENCE_TAIL,
  // fast-check keeps strings short unless told otherwise: "medium" draws lengths across the whole range.
  size: "medium",
});

const SYSTEM_NAMES = ["shop-backend", "Magento 2", "Shopware 6", "WooCommerce", "Kassensystem Süd", "レジ"];

/** A system name: a product name as clients send it, or free text with quotes, letters beyond ASCII and emoji. */
export const wideSystem: fc.Arbitrary<string> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.string({ unit: textUnit, minLength: 1, maxLength: 40 }), weight: 3 },
  { arbitrary: fc.constantFrom(...SYSTEM_NAMES), weight: 1 },
);

const versionNumber = fc.integer({ min: 0, max: 2030 });

/** A version: semantic versions with pre-release and build parts, calendar versions, or free text. */
export const wideSystemVersion: fc.Arbitrary<string> = fc.oneof(
  { withCrossShrink: true },
  {
    arbitrary: fc
      .tuple(
        versionNumber,
        versionNumber,
        versionNumber,
        fc.option(fc.constantFrom("-beta.1", "-rc.2", "-alpha+exp.sha.5114f85", "+build.7")),
      )
      .map(([major, minor, patch, suffix]) => `${major}.${minor}.${patch}${suffix ?? ""}`),
    weight: 3,
  },
  { arbitrary: fc.string({ unit: textUnit, minLength: 1, maxLength: 20 }), weight: 1 },
);

export interface WideEventOptions {
  /** Post every event to one of these channels (a target that restricts channels); default generated ids. */
  readonly channels?: readonly string[] | undefined;
  /** The event type; default "checkout", the value the spec says is used. */
  readonly type?: string | undefined;
}

const plainText = (minLength: number, maxLength: number) => fc.string({ unit: alnum, minLength, maxLength });

/**
 * Plain valid events: ASCII letters and digits only, every documented field present. The base the input
 * mutations start from, so a failure they find is the mutation's, never one of the wide values'.
 */
export function plainEventArbitrary(options: WideEventOptions = {}): fc.Arbitrary<CheckoutEvent> {
  return fc.record({
    type: fc.constant(options.type ?? "checkout"),
    customer: fc.record({
      email: fc
        .tuple(plainText(1, 16), fc.constantFrom(...EXAMPLE_EMAIL_DOMAINS))
        .map(([local, domain]) => `${local}@${domain}`),
    }),
    channel: fc.record({ id: channelIdOf(options) }),
    transaction: fc.record({
      reference: plainText(0, 20).map((tail) => `${REFERENCE_STEM_SLOT}${tail}`),
      date: wideDate,
    }),
    system: plainText(1, 20),
    systemVersion: wideSystemVersion.filter((version) => /^[0-9][0-9A-Za-z.+-]*$/.test(version)),
  });
}

function channelIdOf(options: WideEventOptions): fc.Arbitrary<string> {
  const channels = options.channels;
  return channels !== undefined && channels.length > 0
    ? fc.constantFrom(...channels)
    : channelTail.map((tail) => `${CHANNEL_PREFIX}${tail}`);
}

const channelTail = fc.string({
  unit: fc.constantFrom(...ASCII_ALNUM, "-", "_"),
  minLength: 1,
  maxLength: 36,
});

/**
 * Valid checkout events from the whole space the spec allows on any reading: every documented field present and
 * in its documented form, drawn wide (see each field's arbitrary). transaction.reference starts with
 * REFERENCE_STEM_SLOT, for the sender to replace with its unique stem.
 */
export function wideEventArbitrary(options: WideEventOptions = {}): fc.Arbitrary<CheckoutEvent> {
  const channelId = channelIdOf(options);
  return fc.record({
    type: fc.constant(options.type ?? "checkout"),
    customer: fc.record({ email: wideEmail }),
    channel: fc.record({ id: channelId }),
    transaction: fc.record({
      reference: referenceTail.map((tail) => `${REFERENCE_STEM_SLOT}${tail}`),
      date: wideDate,
    }),
    system: wideSystem,
    systemVersion: wideSystemVersion,
  });
}
