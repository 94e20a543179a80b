import fc from "fast-check";
import type { EventInput, Path } from "./event-input.ts";
import { fieldClass, input, named, withValue } from "./event-input.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { WideEventOptions } from "./wide-event.ts";
import { REFERENCE_STEM_SLOT } from "./wide-event.ts";

/*
 * The string fields' value space by Unicode general category (Unicode 15, UAX #44) and by length. The spec names
 * each only "string": text of any graphic category is a string every store should keep (accepted where the field
 * is free text), while controls, format characters, private use, unassigned code points, lone surrogates and
 * lengths past what the harness sends as valid are answered either way (the spec is silent): never with a 5xx.
 */

/** Characters of each general category, a few per subcategory; astral ones spelled as code points. */
export const UNICODE_CATEGORIES: ReadonlyArray<
  readonly [name: string, description: string, graphic: boolean, characters: readonly string[]]
> = [
  [
    "letters",
    "letters: Lu, Ll, Lt, Lm, Lo (Latin, Greek, Cyrillic, Hebrew, Arabic, CJK, Hangul)",
    true,
    [..."AaǅʰΩжאب中한ñßǈꜰ"],
  ],
  [
    "marks",
    "combining marks: Mn, Mc, Me (after a base letter)",
    true,
    ["e\u0301", "a\u0308", "क\u093e", "ि", "x\u20dd", "n\u0303"],
  ],
  [
    "numbers",
    "numbers: Nd, Nl, No (digits beyond ASCII, Roman numerals, fractions, superscripts)",
    true,
    [..."0٣९Ⅻ½²⁴①"],
  ],
  [
    "punctuation",
    "punctuation: Pc, Pd, Ps, Pe, Pi, Pf, Po (quotes, brackets, dashes)",
    true,
    [..."_-–—([{«»}])“”‘’!\"'#%&*,./:;?@\\¿"],
  ],
  [
    "symbols",
    "symbols: Sm, Sc, Sk, So (maths, currency, modifiers, others)",
    true,
    [..."+<=>|~$€£¥^`´©®°∑√"],
  ],
  [
    "space-separators",
    "space separators: Zs (no-break, em and ideographic spaces)",
    true,
    [" ", "\u00a0", "\u2003", "\u3000", "\u202f"],
  ],
  [
    "astral",
    "characters beyond the Basic Multilingual Plane: emoji (with ZWJ and skin tones), CJK Extension B, maths",
    true,
    ["😀", "👍🏽", "👨‍👩‍👧", "🇩🇪", "𠀋", "𝐀", "𐍈"],
  ],
  [
    "controls",
    "controls: Cc (NUL, BEL, ESC, DEL, C1's NEL)",
    false,
    ["\u0000", "\u0007", "\u001b", "\u007f", "\u0085", "\t", "\n"],
  ],
  [
    "format",
    "format characters: Cf (soft hyphen, zero-width space and joiner, bidi overrides, BOM)",
    false,
    ["\u00ad", "\u200b", "\u200d", "\u202e", "\u2066", "\ufeff"],
  ],
  ["line-separators", "line and paragraph separators: Zl, Zp", false, ["\u2028", "\u2029"]],
  [
    "private-use",
    "private use: Co (BMP and plane 15)",
    false,
    ["\ue000", "\uf8ff", String.fromCodePoint(0xf0000)],
  ],
  [
    "unassigned",
    "unassigned code points and noncharacters: Cn",
    false,
    ["\u0378", "\ufdd0", "\ufffe", "\uffff", String.fromCodePoint(0x10ffff)],
  ],
  [
    "lone-surrogates",
    "lone surrogates: Cs (no Unicode scalar value; JSON escapes them)",
    false,
    // Low ones first: a high surrogate right before a low one would join it into one character beyond the BMP.
    ["\udc00", "\udfff", "\ud800", "\udbff"],
  ],
];

/** Lengths common stores impose (VARCHAR(255), 1000, 4000, 8000, 16 K, 64 K), and one past each. */
const STORE_LIMITS = [256, 255, 1_001, 4_001, 8_001, 16_385, 65_536];
/** Multi-byte text at a character limit: a store that counts bytes runs out first. */
const WIDE_CHARACTERS: readonly string[] = ["é", "中", "😀"];

interface StringField {
  readonly path: Path;
  /** Whether graphic text up to `maxValid` characters must be accepted: free text; or only answered. */
  readonly freeText: boolean;
  /** The most characters of text the harness sends as surely valid (longer is answered). */
  readonly maxValid: number;
}

/** The event's string fields with no format of their own beyond "string" (channel.id has its prefix: channel-space). */
const FIELDS: readonly StringField[] = [
  // "Further values of type: not shown": any other value is the target's choice.
  { path: ["type"], freeText: false, maxValid: 0 },
  { path: ["transaction", "reference"], freeText: true, maxValid: 100 },
  { path: ["system"], freeText: true, maxValid: 40 },
  { path: ["systemVersion"], freeText: true, maxValid: 20 },
];

function stringClass(
  options: WideEventOptions,
  field: StringField,
  name: string,
  expect: InputExpectation,
  description: string,
  cover: readonly string[],
  values: fc.Arbitrary<string>,
): InputClass<EventInput> {
  const at = named(field.path);
  const reference = at === "transaction.reference";
  return fieldClass(options, {
    field: at,
    name,
    description,
    expect,
    cover,
    values,
    make: (event, text) =>
      input(
        `${at} of ${[...text].length} characters: ${description}${text.length <= 40 ? ` (${JSON.stringify(text)})` : ""}`,
        withValue(event, field.path, reference ? `${REFERENCE_STEM_SLOT}${text}` : text),
      ),
  });
}

/** Every class of every string field: each Unicode category, and lengths up to and past common store limits. */
export function stringClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  return FIELDS.flatMap((field) => {
    const max = Math.max(1, field.maxValid);
    const categories = UNICODE_CATEGORIES.map(([name, description, graphic, characters]) => {
      const all = characters.join("");
      // The whole category in one value first (as long as the field takes), then each character behind a letter.
      const whole = graphic && field.freeText ? [...all].slice(0, max).join("") : all;
      return stringClass(
        options,
        field,
        name,
        graphic && field.freeText ? "accepted" : "answered",
        description,
        [whole, ...characters.map((character) => `a${character}`)],
        fc.string({
          unit: fc.constantFrom(...characters),
          minLength: 1,
          maxLength: field.freeText ? max : 20,
        }),
      );
    });
    const lengths = [
      stringClass(
        options,
        field,
        "length-within",
        field.freeText ? "accepted" : "answered",
        `1 to ${max} characters, the longest the harness sends as valid`,
        ["x".repeat(max), "x", [...WIDE_CHARACTERS.join("").repeat(max)].slice(0, max).join("")],
        fc.string({ unit: fc.constantFrom(..."abcXYZ019 -_."), minLength: 1, maxLength: max }),
      ),
      stringClass(
        options,
        field,
        "store-limits",
        "answered",
        "lengths at and past what common stores hold: 255, 256, 1,001, 4,001, 8,001, 16,385 and 65,536 characters (size limits: not shown)",
        STORE_LIMITS.map((length) => "x".repeat(length)),
        fc.integer({ min: max + 1, max: 70_000 }).map((length) => "y".repeat(length)),
      ),
      stringClass(
        options,
        field,
        "multi-byte-lengths",
        "answered",
        "255 and 256 characters of 2-, 3- and 4-byte UTF-8: a store that counts bytes fills first",
        WIDE_CHARACTERS.flatMap((character) => [character.repeat(256), character.repeat(255)]),
        fc
          .tuple(fc.constantFrom(...WIDE_CHARACTERS), fc.integer({ min: max + 1, max: 1_100 }))
          .map(([character, length]) => character.repeat(length)),
      ),
    ];
    return [...categories, ...lengths];
  });
}
