import { describe, expect, it } from "vitest";
import { scanJsonText } from "../../sandbox/fragile-input.ts";

describe("scanJsonText: what a streaming parser sees that JSON.parse has already rounded away", () => {
  it("measures nesting outside strings", () => {
    expect(scanJsonText('{"a":[1,{"b":"[[[{{{"}]}').depth).toBe(3);
    expect(scanJsonText('"\\"[["').depth).toBe(0);
    expect(scanJsonText(`${"[".repeat(101)}${"]".repeat(101)}`).depth).toBe(101);
  });

  it("finds integer literals beyond 2^53, and only those", () => {
    expect(scanJsonText('{"n":9007199254740992}').hugeInteger).toBe(false);
    expect(scanJsonText('{"n":9007199254740993}').hugeInteger).toBe(true);
    expect(scanJsonText('{"n":-9007199254740993}').hugeInteger).toBe(true);
    expect(scanJsonText('{"n":9007199254740993.5,"m":1e400}').hugeInteger).toBe(false);
    expect(scanJsonText('{"s":"9007199254740993"}').hugeInteger).toBe(false);
  });
});
