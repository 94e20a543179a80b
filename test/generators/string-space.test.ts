import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { REFERENCE_STEM_SLOT, stringClasses, UNICODE_CATEGORIES } from "../../generators/index.ts";

type Body = { type: string; system: string; systemVersion: string; transaction: { reference: string } };
const parsed = (input: EventInput) => JSON.parse(input.body) as Body;
const codePoints = (text: string) => [...text].length;

/** Built once: the classes are immutable, and building them (long values included) is the slow part. */
const CLASSES = stringClasses();

function byKey(field: string, name: string, classes = CLASSES): InputClass<EventInput> {
  const found = classes.find((c) => c.field === field && c.name === name);
  if (found === undefined) throw new Error(`no class ${field}/${name}`);
  return found;
}

const fieldValue = (field: string, input: EventInput): string => {
  const body = parsed(input);
  if (field === "transaction.reference") return body.transaction.reference;
  return body[field as "type" | "system" | "systemVersion"];
};

const CATEGORY_NAMES = [
  "letters",
  "marks",
  "numbers",
  "punctuation",
  "symbols",
  "space-separators",
  "astral",
  "controls",
  "format",
  "line-separators",
  "private-use",
  "unassigned",
  "lone-surrogates",
];
const GRAPHIC = new Set(CATEGORY_NAMES.slice(0, 7));

describe("UNICODE_CATEGORIES", () => {
  it("holds the general categories in order, graphic ones first", () => {
    expect(UNICODE_CATEGORIES.map(([name]) => name)).toEqual(CATEGORY_NAMES);
    expect(UNICODE_CATEGORIES.filter(([, , graphic]) => graphic).map(([name]) => name)).toEqual([...GRAPHIC]);
  });

  it("puts in each non-graphic class only characters of its category, read by the regex engine's Unicode tables", () => {
    const category: Record<string, RegExp> = {
      controls: /^\p{Cc}$/u,
      format: /^\p{Cf}$/u,
      "line-separators": /^[\p{Zl}\p{Zp}]$/u,
      "private-use": /^\p{Co}$/u,
      unassigned: /^\p{Cn}$/u,
      "lone-surrogates": /^\p{Cs}$/u,
    };
    for (const [name, , , characters] of UNICODE_CATEGORIES.filter(([n]) => n in category))
      for (const character of characters) expect(character, name).toMatch(category[name] as RegExp);
  });
});

describe("stringClasses", () => {
  it("gives each of the four string fields every category and three length classes", () => {
    const classes = CLASSES;
    const fields = ["type", "transaction.reference", "system", "systemVersion"];
    expect([...new Set(classes.map((c) => c.field))]).toEqual(fields);
    for (const field of fields)
      expect(classes.filter((c) => c.field === field).map((c) => c.name)).toEqual([
        ...CATEGORY_NAMES,
        "length-within",
        "store-limits",
        "multi-byte-lengths",
      ]);
  });

  it("expects graphic text in a free-text field accepted, and everything else only answered", () => {
    for (const cls of CLASSES) {
      const accepted = cls.field !== "type" && (GRAPHIC.has(cls.name) || cls.name === "length-within");
      expect(cls.expect, `${cls.field}/${cls.name}`).toBe(accepted ? "accepted" : "answered");
    }
  });

  it("keeps a free-text field's whole-category value within the longest valid text: 20 for systemVersion", () => {
    const [whole] = byKey("systemVersion", "punctuation").cover;
    expect(fieldValue("systemVersion", whole as EventInput)).toBe("_-–—([{«»}])“”‘’!\"'#");
    const [letters] = byKey("system", "letters").cover;
    expect(fieldValue("system", letters as EventInput)).toBe("AaǅʰΩжאب中한ñßǈꜰ");
  });

  it("sends each character behind the letter a after the whole category", () => {
    const values = byKey("system", "controls").cover.map((input) => fieldValue("system", input));
    expect(values).toEqual([
      "\u0000\u0007\u001b\u007f\u0085\t\n",
      "a\u0000",
      "a\u0007",
      "a\u001b",
      "a\u007f",
      "a\u0085",
      "a\t",
      "a\n",
    ]);
  });

  it("keeps the reference's slot in front of every reference, so each input still gets a unique one", () => {
    const cls = byKey("transaction.reference", "letters");
    for (const input of [...cls.cover, ...fc.sample(cls.arbitrary, { seed: 2, numRuns: 20 })])
      expect(fieldValue("transaction.reference", input).startsWith(REFERENCE_STEM_SLOT)).toBe(true);
    expect(fieldValue("transaction.reference", cls.cover[1] as EventInput)).toBe(`${REFERENCE_STEM_SLOT}aA`);
  });

  it("writes lone surrogates as JSON escapes: the body stays well-formed text and parses back to them", () => {
    const cls = byKey("system", "lone-surrogates");
    for (const input of cls.cover) {
      // UTF-8 has no lone surrogate: a raw one would come back from the round trip as U+FFFD.
      expect(Buffer.from(input.body, "utf8").toString("utf8")).toBe(input.body);
      expect(input.body).toMatch(/\\ud[89ab][0-9a-f]{2}|\\ud[c-f][0-9a-f]{2}/);
    }
    const [whole, ...single] = cls.cover.map((input) => fieldValue("system", input));
    expect(single.sort()).toEqual(["a\ud800", "a\udbff", "a\udc00", "a\udfff"]);
    // Iterated by code point, a high surrogate before a low one would make one character beyond the BMP.
    expect([...(whole ?? "")].map((c) => c.codePointAt(0)?.toString(16)).sort()).toEqual([
      "d800",
      "dbff",
      "dc00",
      "dfff",
    ]);
  });

  it("covers the field's longest valid text in ASCII and in 2-, 3- and 4-byte characters", () => {
    const values = byKey("system", "length-within").cover.map((input) => fieldValue("system", input));
    expect(values.map(codePoints)).toEqual([40, 1, 40]);
    expect(values[2]?.slice(0, 6)).toBe("é中😀é中😀".slice(0, 6));
    const type = byKey("type", "length-within").cover.map((input) => fieldValue("type", input));
    expect(type.map(codePoints)).toEqual([1, 1, 1]);
  });

  it("covers common store limits at and one past each, and draws only past the longest valid text", () => {
    const cls = byKey("systemVersion", "store-limits");
    expect(cls.cover.map((input) => fieldValue("systemVersion", input).length)).toEqual([
      256, 255, 1_001, 4_001, 8_001, 16_385, 65_536,
    ]);
    for (const input of fc.sample(cls.arbitrary, { seed: 4, numRuns: 20 })) {
      const length = fieldValue("systemVersion", input).length;
      expect(length).toBeGreaterThan(20);
      expect(length).toBeLessThanOrEqual(70_000);
    }
  });

  it("covers 255 and 256 characters of 2-, 3- and 4-byte UTF-8, counted in code points and octets", () => {
    const values = byKey("system", "multi-byte-lengths").cover.map((input) => fieldValue("system", input));
    expect(values.map(codePoints)).toEqual([256, 255, 256, 255, 256, 255]);
    expect(values.map((value) => Buffer.byteLength(value, "utf8"))).toEqual([
      512, 510, 768, 765, 1_024, 1_020,
    ]);
  });

  it("describes each input by its length in characters, quoting short values only", () => {
    const [whole, first] = byKey("system", "astral").cover;
    expect(first?.what).toBe(`system of 2 characters: ${byKey("system", "astral").description} ("a😀")`);
    expect(whole?.what.startsWith("system of ")).toBe(true);
    const [long] = byKey("system", "store-limits").cover;
    expect(long?.what).not.toContain("xxx");
  });

  it("changes only the field it names, keeping the options' channel", () => {
    const [input] = byKey("systemVersion", "numbers", stringClasses({ channels: ["chl-mine"] })).cover;
    const body = JSON.parse(input?.body ?? "") as Record<string, unknown>;
    expect(body.channel).toEqual({ id: "chl-mine" });
    expect(body.system).toBe("shop-backend");
    expect(body.systemVersion).toBe("0٣९Ⅻ½²⁴①");
  });
});
