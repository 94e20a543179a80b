import { describe, expect, it } from "vitest";
import { quotedName, shortName, someOf } from "../../cli/quoted-name.ts";

describe("shortName and quotedName", () => {
  it("repeat a name of up to 60 characters whole", () => {
    const sixty = "n".repeat(60);
    expect(shortName(sixty)).toBe(sixty);
    expect(quotedName(sixty)).toBe(`'${sixty}'`);
    expect(quotedName("")).toBe("''");
  });

  it("cut a longer name at 60 characters and say its length", () => {
    const long = `${"a".repeat(60)}${"b".repeat(999_940)}`;
    expect(shortName(long)).toBe(`${"a".repeat(60)}… (1000000 characters)`);
    expect(quotedName(long)).toBe(`'${"a".repeat(60)}…' (1000000 characters)`);
    expect(shortName("x".repeat(61))).toBe(`${"x".repeat(60)}… (61 characters)`);
  });
});

describe("someOf", () => {
  it("lists up to ten items whole", () => {
    expect(someOf([])).toBe("");
    expect(someOf(["a"])).toBe("a");
    const ten = Array.from({ length: 10 }, (_, index) => `k${index}`);
    expect(someOf(ten)).toBe(ten.join(", "));
  });

  it("counts the rest after the first ten, with the separator and words given", () => {
    const items = Array.from({ length: 12 }, (_, index) => index);
    expect(someOf(items, "; ", (n) => `#${n}`)).toBe("#0; #1; #2; #3; #4; #5; #6; #7; #8; #9; and 2 more");
  });

  it("words only the ten it shows of a huge list", () => {
    let shown = 0;
    const text = someOf(
      Array.from({ length: 100_000 }, () => "x"),
      ", ",
      (item) => {
        shown += 1;
        return item;
      },
    );
    expect(shown).toBe(10);
    expect(text.endsWith(", and 99990 more")).toBe(true);
  });
});
