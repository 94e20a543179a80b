import { ownCopy } from "../../../contracts/probe/own-copy.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("ownCopy", () => {
  it("keeps every code unit, lone surrogates and NUL included", () => {
    const text = "a\u0000é😀\ud800x\udc00";
    const copy = ownCopy(text);
    expect(copy).toBe(text);
    expect([...copy].map((char) => char.codePointAt(0))).toEqual([
      0x61, 0x00, 0xe9, 0x1f600, 0xd800, 0x78, 0xdc00,
    ]);
  });

  it("copies an empty string and a slice of a long one as they are", () => {
    expect(ownCopy("")).toBe("");
    const long = "0123456789".repeat(10_000);
    expect(ownCopy(long.slice(5, 25))).toBe("56789012345678901234");
  });
});
