import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonText } from "../../generators/index.ts";
import { nestingDepth, RawNumber, RepeatedKeys, toJsonText } from "../../generators/index.ts";

describe("toJsonText", () => {
  it("writes plain JSON values exactly as JSON.stringify does", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(toJsonText(value as JsonText)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300, seed: 1 },
    );
  });

  it("writes integers past 2^53 digit for digit, which JSON.stringify cannot", () => {
    const text = toJsonText({ n: new RawNumber("9007199254740993"), m: [new RawNumber("-1e400")] });
    expect(text).toBe('{"n":9007199254740993,"m":[-1e400]}');
    expect(() => new RawNumber("NaN")).toThrow(RangeError);
    expect(() => new RawNumber("01")).toThrow(RangeError);
  });

  it("writes a key twice when asked, in order", () => {
    const text = toJsonText(
      new RepeatedKeys([
        ["type", 1],
        ["a", { b: null }],
        ["type", true],
      ]),
    );
    expect(text).toBe('{"type":1,"a":{"b":null},"type":true}');
    expect(JSON.parse(text)).toEqual({ type: true, a: { b: null } });
  });

  it("writes a body nested 100 000 levels deep without exhausting its stack", () => {
    let value: JsonText = 0;
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { a: value };
    const text = toJsonText(value);
    expect(text.length).toBe(100_000 + 1 + 100_000 + 50_000 * 4);
    expect(nestingDepth(value)).toBe(100_000);
  });

  it("measures nesting: scalars 0, each array or object one more", () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth({ a: [1, { b: [] }] })).toBe(4);
    expect(nestingDepth(new RepeatedKeys([["a", [[]]]]))).toBe(3);
  });
});
