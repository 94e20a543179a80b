import { describe, expect, it } from "vitest";
import type { TextView } from "../../transport/text-views.ts";
import { decodedViews, MAX_DECODING_DEPTH, MAX_VIEWS } from "../../transport/text-views.ts";

/** The views of `text`, which must be searchable. */
function viewsOf(text: string, minBytes?: number): TextView[] {
  const views = decodedViews(text, minBytes);
  if (views === undefined) throw new Error(`no views of ${JSON.stringify(text)}`);
  return views;
}

/** The view whose text is `text`. */
function viewWith(views: TextView[], text: string): TextView {
  const view = views.find((candidate) => candidate.text === text);
  if (view === undefined)
    throw new Error(`no view ${JSON.stringify(text)} in ${JSON.stringify(texts(views))}`);
  return view;
}

/** The decoded bytes' view that holds `piece` whole between the NULs that set pieces apart. */
function binaryViewWith(views: TextView[], piece: string): TextView {
  const view = views.find((candidate) => candidate.binary && candidate.text.includes(piece));
  if (view === undefined) throw new Error(`no binary view with ${JSON.stringify(piece)}`);
  return view;
}

/** The span of the original that the view's characters [from, to) came from. */
function spanOf(view: TextView, from: number, to: number): [number, number] {
  return [view.start(from), view.end(to - 1)];
}

const texts = (views: TextView[]): string[] => views.map((view) => view.text);

describe("decodedViews", () => {
  it("gives text with nothing encoded in it as it is, each character its own span", () => {
    const views = viewsOf("plain words.");
    expect(texts(views)).toEqual(["plain words."]);
    const [raw] = views;
    expect(raw?.binary).toBe(false);
    expect(spanOf(raw as TextView, 6, 11)).toEqual([6, 11]);
  });

  it("undoes JSON string escapes, mapping a decoded character to its whole escape", () => {
    const text = String.raw`a\u0041\"b\/c`;
    const view = viewWith(viewsOf(text), 'aA"b/c');
    expect(view.binary).toBe(false);
    expect(spanOf(view, 1, 2)).toEqual([1, 7]);
    expect(spanOf(view, 2, 3)).toEqual([7, 9]);
    expect(spanOf(view, 3, 4)).toEqual([9, 10]);
    // A backslash before anything JSON does not escape stays as it is.
    expect(texts(viewsOf(String.raw`\q\u12`))).toEqual([String.raw`\q\u12`]);
  });

  it("reads percent escapes as UTF-8, and `+` as a space only in a form's view", () => {
    const views = viewsOf("x%E2%82%ACy+z");
    // "€" is E2 82 AC in UTF-8: one character standing for nine of the original.
    const percent = viewWith(views, "x€y+z");
    expect(spanOf(percent, 1, 2)).toEqual([1, 10]);
    const form = viewWith(views, "x€y z");
    expect(spanOf(form, 3, 4)).toEqual([11, 12]);
  });

  it("leaves an escape that is no UTF-8 as it is", () => {
    // FF never starts a UTF-8 sequence, C3 alone is a cut one, C0 AF an overlong "/".
    expect(texts(viewsOf("%FF%C3%C0%AF"))).toEqual(["%FF%C3%C0%AF"]);
    expect(viewsOf("%ff%41").some((view) => view.text === "%ffA")).toBe(true);
  });

  it("reads \\x byte escapes in either case", () => {
    const text = String.raw`id=\x73\x65\x63\x52\x45\x54`;
    const view = viewWith(viewsOf(text), "id=secRET");
    expect(spanOf(view, 3, 9)).toEqual([3, text.length]);
  });

  it("finds text in hex at either parity and maps each character to its two digits", () => {
    const hex = Buffer.from("secret", "utf8").toString("hex");
    const text = `k=${hex}`;
    const even = binaryViewWith(viewsOf(text), "secret");
    const at = even.text.indexOf("secret");
    expect(spanOf(even, at, at + 6)).toEqual([2, 2 + hex.length]);
    expect(spanOf(even, at + 1, at + 2)).toEqual([4, 6]);
    // One digit in front shifts the value to the odd parity of the run.
    const odd = binaryViewWith(viewsOf(`k=f${hex}`), "secret");
    const oddAt = odd.text.indexOf("secret");
    expect(spanOf(odd, oddAt, oddAt + 1)).toEqual([3, 5]);
  });

  it("finds text in base64 and base64url however it sits in a longer encoded stream", () => {
    // One to three characters of the alphabet in front put the value at each offset of its run.
    for (const lead of ["", "Q", "QQ", "QQQ"]) {
      for (const encoding of ["base64", "base64url"] as const) {
        const encoded = Buffer.from("client-secret?>", "latin1").toString(encoding).replace(/=+$/, "");
        const views = viewsOf(`v ${lead}${encoded} v`);
        const found = views.filter((view) => view.binary && view.text.includes("client-secret?>"));
        expect(found, `${encoding} after ${lead.length} characters`).not.toEqual([]);
      }
    }
  });

  it("keeps only runs of text as long as asked, set apart so no match spans two", () => {
    // "abcd", a control byte, "efgh": two pieces; "xy" after another control byte is too short.
    const hex = Buffer.from("abcd\u0001efgh\u0002xy", "latin1").toString("hex");
    const view = binaryViewWith(viewsOf(hex), "abcd\u0000efgh");
    expect(view.text).not.toContain("xy");
    const at = view.text.indexOf("efgh");
    expect(spanOf(view, at, at + 4)).toEqual([10, 18]);
    // Asked for pieces of five bytes at least, neither is one.
    expect(viewsOf(hex, 5).some((candidate) => /abcd|efgh/.test(candidate.text))).toBe(false);
  });

  it("reads fewer than four bytes of hex or base64 as chance, not an encoding", () => {
    expect(texts(viewsOf(Buffer.from("abc").toString("hex")))).toEqual(["616263"]);
    // A smaller minimum than four is raised to four.
    expect(texts(viewsOf("616263", 1))).toEqual(["616263"]);
  });

  it("undoes encodings layered in any order, mapping back to the original", () => {
    const secret = "s3cr3t-value";
    const text = encodeURIComponent(JSON.stringify({ v: Buffer.from(secret).toString("base64") }));
    const views = viewsOf(text);
    const deepest = views.find((view) => view.text.includes(secret));
    expect(deepest).toBeDefined();
    const at = (deepest as TextView).text.indexOf(secret);
    const [start, end] = spanOf(deepest as TextView, at, at + secret.length);
    // The span is the base64 in the original, the only part of it that carried the secret.
    expect(text.slice(start, end)).toBe(Buffer.from(secret).toString("base64"));
  });

  it(`decodes ${MAX_DECODING_DEPTH} layers deep and no deeper`, () => {
    // "%41" percent-encoded n more times is "%" + "25" × n + "41": n + 1 decodings give "A".
    const layered = (times: number) => `%${"25".repeat(times)}41`;
    expect(viewsOf(layered(MAX_DECODING_DEPTH - 1)).some((view) => view.text === "A")).toBe(true);
    expect(viewsOf(layered(MAX_DECODING_DEPTH)).some((view) => view.text === "A")).toBe(false);
  });

  it("lists each distinct text once", () => {
    // Percent and form decoding agree on a text with no `+`: one view, not two.
    expect(texts(viewsOf("%41%42"))).toEqual(["%41%42", "AB"]);
  });

  it(`refuses a text with more than ${MAX_VIEWS} distinct decodings, built to bury a value under decoys`, () => {
    // Three escape chains, each decoded one layer at a time in any interleaving: more texts than MAX_VIEWS.
    const percent = `%${"25".repeat(6)}41`;
    const json = `${"\\".repeat(64)}u0042`;
    expect(decodedViews(`${percent} ${json} + ${"\\".repeat(16)}x43`)).toBeUndefined();
    // Two of the chains and a form's `+` stay under it, and are searched.
    expect(decodedViews(`${percent} ${json} a+b`)?.length).toBeLessThanOrEqual(MAX_VIEWS);
  });

  it("has no views to offer of an empty text but itself", () => {
    expect(texts(viewsOf(""))).toEqual([""]);
  });
});
