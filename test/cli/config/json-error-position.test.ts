import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonErrorPosition } from "../../../cli/config/json-error-position.ts";

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON text with one character inserted, replaced or removed: mostly near-valid, sometimes still valid. */
const nearJson = fc
  .tuple(
    fc.json(),
    fc.nat(),
    fc.constantFrom("insert", "replace", "remove"),
    fc.constantFrom(...'{}[],:"\\ \n0-.etfnu\u0001x'),
  )
  .map(([text, index, edit, char]) => {
    const at = index % (text.length + 1);
    if (edit === "insert") return text.slice(0, at) + char + text.slice(at);
    if (edit === "replace") return text.slice(0, at) + char + text.slice(at + 1);
    return text.slice(0, at) + text.slice(at + 1);
  });

describe("jsonErrorPosition", () => {
  it("finds no error in any JSON text", () => {
    fc.assert(
      fc.property(fc.json(), (text) => jsonErrorPosition(text) === undefined),
      { numRuns: 300, seed: 1 },
    );
  });

  it("finds an error exactly where JSON.parse refuses the text, near-valid or arbitrary", () => {
    fc.assert(
      fc.property(fc.oneof(nearJson, fc.string()), (text) => {
        expect(jsonErrorPosition(text) === undefined).toBe(parses(text));
      }),
      { numRuns: 500, seed: 2 },
    );
  });

  it("places the error at the character that breaks the text, 1-based", () => {
    expect(jsonErrorPosition('{"a": 1,}')).toEqual({ line: 1, column: 9 });
    expect(jsonErrorPosition('{\n  "secret": tru\n}')).toEqual({ line: 2, column: 16 });
    expect(jsonErrorPosition("{\r\n x}")).toEqual({ line: 2, column: 2 });
    expect(jsonErrorPosition("[1, 2] 3")).toEqual({ line: 1, column: 8 });
    expect(jsonErrorPosition("01")).toEqual({ line: 1, column: 2 });
    expect(jsonErrorPosition("-")).toEqual({ line: 1, column: 1 });
  });

  it("places errors inside strings: an end never reached, a bad escape, a control character", () => {
    expect(jsonErrorPosition('"abc')).toEqual({ line: 1, column: 5 });
    expect(jsonErrorPosition('"\\x"')).toEqual({ line: 1, column: 3 });
    expect(jsonErrorPosition('"\\u12G4"')).toEqual({ line: 1, column: 6 });
    expect(jsonErrorPosition('"a\tb"')).toEqual({ line: 1, column: 3 });
    expect(jsonErrorPosition('"\\')).toEqual({ line: 1, column: 3 });
  });

  it("says line 1, column 1 for an empty or blank text and for a byte order mark", () => {
    expect(jsonErrorPosition("")).toEqual({ line: 1, column: 1 });
    expect(jsonErrorPosition(" \n ")).toEqual({ line: 2, column: 2 });
    expect(jsonErrorPosition('\uFEFF{"a":1}')).toEqual({ line: 1, column: 1 });
  });

  it("takes 512 levels of nesting and stops at the next, so a deep file cannot exhaust the stack", () => {
    expect(jsonErrorPosition(`${"[".repeat(513)}${"]".repeat(513)}`)).toBeUndefined();
    expect(jsonErrorPosition(`${"[".repeat(514)}${"]".repeat(514)}`)).toEqual({ line: 1, column: 514 });
    expect(jsonErrorPosition(`${'{"a":'.repeat(100_000)}`)).toEqual({ line: 1, column: 513 * 5 + 1 });
  });
});
