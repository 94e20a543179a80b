import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { bodyClasses } from "../../generators/index.ts";
import { COVER_EVENT } from "../support/cover-event.ts";

function byName(name: string, classes = bodyClasses()): InputClass<EventInput> {
  const found = classes.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no class ${name}`);
  return found;
}

/** The bytes a sender puts on the wire for `input`, by Node's own encoders (UTF-16BE: UTF-16LE with each pair swapped). */
function wire(input: EventInput): Buffer {
  switch (input.encoding ?? "utf-8") {
    case "utf-16le":
      return Buffer.from(input.body, "utf16le");
    case "utf-16be":
      return Buffer.from(input.body, "utf16le").swap16();
    case "latin1":
      return Buffer.from(input.body, "latin1");
    default:
      return Buffer.from(input.body, "utf8");
  }
}

describe("bodyClasses", () => {
  it("holds the body's top-level type and encoding classes with their expectations", () => {
    expect(bodyClasses().map((c) => [c.field, c.name, c.expect, c.cover.length])).toEqual([
      ["body", "top-level-not-object", "refused", 10],
      ["body", "byte-order-mark", "answered", 1],
      ["body", "utf-16-and-other-charsets", "answered", 4],
      ["body", "not-utf-8", "answered", 6],
    ]);
  });

  it("makes every top-level value JSON that is not an object, covered or drawn", () => {
    const cls = byName("top-level-not-object");
    for (const input of [...cls.cover, ...fc.sample(cls.arbitrary, { seed: 14, numRuns: 40 })]) {
      const value = JSON.parse(input.body) as unknown;
      const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
      expect(isObject, input.body).toBe(false);
      expect(input.contentType).toBe("application/json");
    }
    const values = cls.cover.map((input) => JSON.parse(input.body) as unknown);
    expect(values.slice(2)).toEqual([null, true, false, 0, -1.5, "checkout", [], [COVER_EVENT, COVER_EVENT]]);
    expect(values[0]).toEqual([COVER_EVENT]);
    expect(JSON.parse(values[1] as string)).toEqual(COVER_EVENT);
  });

  it("puts a UTF-8 byte-order mark (EF BB BF) in front of a valid event", () => {
    const [input] = byName("byte-order-mark").cover;
    const bytes = wire(input as EventInput);
    expect(bytes.subarray(0, 4).toString("hex")).toBe("efbbbf7b");
    expect(JSON.parse(bytes.subarray(3).toString("utf8"))).toEqual(COVER_EVENT);
  });

  it("writes the event in UTF-16 in both byte orders, with and without a byte-order mark, declared or not", () => {
    const cover = byName("utf-16-and-other-charsets").cover;
    const heads = cover.map((input) => wire(input).subarray(0, 4).toString("hex"));
    expect(heads).toEqual(["fffe7b00", "feff007b", "7b002200", "007b0022"]);
    expect(cover.map((input) => input.contentType)).toEqual([
      "application/json; charset=utf-16",
      "application/json; charset=utf-16",
      "application/json",
      "application/json; charset=utf-16be",
    ]);
    const decoders = ["utf-16le", "utf-16be", "utf-16le", "utf-16be"];
    cover.forEach((input, index) => {
      const text = new TextDecoder(decoders[index]).decode(wire(input));
      expect(JSON.parse(text), input.what).toEqual(COVER_EVENT);
    });
  });

  it("puts bytes that are no UTF-8 in system, and nothing else in the body is out of UTF-8", () => {
    const cover = byName("not-utf-8").cover;
    const strict = new TextDecoder("utf-8", { fatal: true });
    const inSystem = cover.map((input) => {
      const bytes = wire(input);
      expect(() => strict.decode(bytes), input.what).toThrow(TypeError);
      const start = bytes.indexOf('"system":"shop');
      const end = bytes.indexOf('","systemVersion"');
      return bytes.subarray(start + '"system":"shop'.length, end).toString("hex");
    });
    expect(inSystem).toEqual(["e9", "c0af", "eda080", "e4b8", "80", "ff"]);
    for (const input of cover) {
      const text = wire(input)
        .toString("latin1")
        .replace(/"system":"shop[^"]*"/, '"system":"x"');
      expect(JSON.parse(text)).toEqual({ ...COVER_EVENT, system: "x" });
    }
  });

  it("keeps a multi-byte character elsewhere in the event as its UTF-8 bytes", () => {
    const [input] = byName("not-utf-8", bodyClasses({ channels: ["chl-zürich"] })).cover;
    expect(wire(input as EventInput).includes(Buffer.from("chl-zürich", "utf8"))).toBe(true);
  });

  it("draws encoded bodies only among the cover's encodings, each decoding to a valid event's text", () => {
    const cls = byName("utf-16-and-other-charsets");
    for (const input of fc.sample(cls.arbitrary, { seed: 15, numRuns: 20 })) {
      const le = input.encoding === "utf-16le";
      const text = new TextDecoder(le ? "utf-16le" : "utf-16be").decode(wire(input));
      expect(JSON.parse(text)).toMatchObject({ type: "checkout" });
    }
  });
});
