import { describe, expect, it } from "vitest";
import { cloneJson, withoutValueAt, withValueAt } from "../../generators/json-edit.ts";

const source = { a: 1, b: { c: [1, { d: 2 }], e: "x" }, f: null };

describe("json edits", () => {
  it("deep-copies without sharing objects", () => {
    const copy = cloneJson(source);
    expect(copy).toEqual(source);
    expect(copy.b).not.toBe(source.b);
    expect(copy.b.c).not.toBe(source.b.c);
  });

  it("replaces a value in place, keeping key order and the source intact", () => {
    const edited = withValueAt(source, ["b", "c", 1, "d"], 3) as typeof source;
    expect(edited.b.c[1]).toEqual({ d: 3 });
    expect(source.b.c[1]).toEqual({ d: 2 });
    expect(Object.keys(withValueAt(source, ["a"], 0) as object)).toEqual(["a", "b", "f"]);
  });

  it("removes a member or an array item", () => {
    expect(withoutValueAt(source, ["b", "e"])).toEqual({ a: 1, b: { c: [1, { d: 2 }] }, f: null });
    expect(withoutValueAt(source, ["b", "c", 0])).toEqual({ a: 1, b: { c: [{ d: 2 }], e: "x" }, f: null });
    expect(source.b).toHaveProperty("e");
  });

  it("refuses a path that does not exist, rather than inventing one", () => {
    expect(() => withValueAt(source, ["nope", "x"], 1)).toThrow(RangeError);
    expect(() => withoutValueAt(source, ["b", "zz"])).toThrow(RangeError);
    expect(() => withoutValueAt(source, [])).toThrow(RangeError);
  });
});
