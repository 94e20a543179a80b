import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { channelClasses } from "../../generators/index.ts";

const idOf = (input: EventInput) => (JSON.parse(input.body) as { channel: { id: string } }).channel.id;

/** Built once: the classes are immutable, and building them (long values included) is the slow part. */
const CLASSES = channelClasses();

function byName(name: string, classes = CLASSES): InputClass<EventInput> {
  const found = classes.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no class ${name}`);
  return found;
}

/** Code points as U+XXXX, so look-alike characters show what they are. */
const codes = (text: string) =>
  [...text].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);

describe("channelClasses", () => {
  it("refuses a broken prefix and only answers the rest: the prefix alone, every category of tail, long tails", () => {
    expect(CLASSES.map((c) => [c.field, c.name, c.expect])).toEqual([
      ["channel.id", "prefix-broken", "refused"],
      ["channel.id", "prefix-only", "answered"],
      ["channel.id", "tail-letters", "answered"],
      ["channel.id", "tail-marks", "answered"],
      ["channel.id", "tail-numbers", "answered"],
      ["channel.id", "tail-punctuation", "answered"],
      ["channel.id", "tail-symbols", "answered"],
      ["channel.id", "tail-space-separators", "answered"],
      ["channel.id", "tail-astral", "answered"],
      ["channel.id", "tail-controls", "answered"],
      ["channel.id", "tail-format", "answered"],
      ["channel.id", "tail-line-separators", "answered"],
      ["channel.id", "tail-private-use", "answered"],
      ["channel.id", "tail-unassigned", "answered"],
      ["channel.id", "tail-lone-surrogates", "answered"],
      ["channel.id", "tail-lengths", "answered"],
    ]);
  });

  it("breaks the prefix of the target's own channel in each way, keeping its tail", () => {
    const ids = byName("prefix-broken", channelClasses({ channels: ["chl-shop-7"] })).cover.map(idOf);
    expect(ids).toEqual([
      "shop-7",
      "CHL-shop-7",
      "Chl-shop-7",
      "chl_shop-7",
      "chlshop-7",
      "chl\u2010shop-7",
      "\u0441hl-shop-7",
      "\uff43\uff48\uff4c-shop-7",
      "\u200bchl-shop-7",
      "x-chl-shop-7",
    ]);
    expect(codes(ids[6] ?? "").slice(0, 4)).toEqual(["U+0441", "U+0068", "U+006C", "U+002D"]);
    for (const id of ids) expect(id.startsWith("chl-"), id).toBe(false);
  });

  it.each([
    [undefined, "harness"],
    [["shop-7"], "harness"],
    [["chl-"], "harness"],
    [["chl-a", "chl-b"], "a"],
  ])(
    "takes the tail of the first configured channel %j when it has the prefix, else %s",
    (channels, tail) => {
      const [first] = byName(
        "prefix-broken",
        channelClasses(channels === undefined ? {} : { channels }),
      ).cover;
      expect(idOf(first as EventInput)).toBe(tail);
    },
  );

  it("covers each category's characters behind the prefix", () => {
    expect(byName("tail-numbers").cover.map(idOf)).toEqual(["chl-0٣९Ⅻ½²⁴①"]);
    expect(byName("prefix-only").cover.map(idOf)).toEqual(["chl-"]);
    const [lone] = byName("tail-lone-surrogates").cover.map(idOf);
    expect(
      [...(lone ?? "").slice(4)].every((c) => /^\p{Cs}$/u.test(c)),
      "no surrogate pair in the tail",
    ).toBe(true);
    for (const cls of CLASSES.filter((c) => c.name.startsWith("tail-")))
      for (const input of [...cls.cover, ...fc.sample(cls.arbitrary, { seed: 16, numRuns: 10 })])
        expect(idOf(input).startsWith("chl-"), cls.name).toBe(true);
  });

  it("covers tails of 10,000, 252 and 251 characters, and draws only past 36", () => {
    const cls = byName("tail-lengths");
    expect(cls.cover.map((input) => idOf(input).length)).toEqual([10_004, 256, 255]);
    expect(cls.description).toMatch(/^"chl-" then 37 to 10,000 characters, ids of 255 and 256 among them /);
    for (const input of fc.sample(cls.arbitrary, { seed: 17, numRuns: 30 })) {
      const length = idOf(input).length - 4;
      expect(length).toBeGreaterThanOrEqual(37);
      expect(length).toBeLessThanOrEqual(10_000);
    }
  });

  it("quotes at most 60 characters of an id in the description", () => {
    const [longest, shorter] = byName("tail-lengths").cover;
    expect(longest?.what).toBe(`channel.id "chl-${"c".repeat(56)}…" (${byName("tail-lengths").description})`);
    expect(shorter?.what.includes("c".repeat(61))).toBe(false);
    const [plain] = byName("prefix-only").cover;
    expect(plain?.what).toBe(`channel.id "chl-" (${byName("prefix-only").description})`);
  });
});
