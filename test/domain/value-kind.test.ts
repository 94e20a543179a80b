import { valueKind } from "../../domain/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";

/** A quote that shows it was called: the value in brackets. */
const bracket = (value: unknown): string => `[${String(value)}]`;

describe("valueKind", () => {
  it("names null, arrays and objects without quoting them", () => {
    expect(valueKind(null, bracket)).toBe("null");
    expect(valueKind([1, 2], bracket)).toBe("an array");
    expect(valueKind({ a: 1 }, bracket)).toBe("an object");
  });

  it("quotes a string, a number and a boolean through the caller's quote", () => {
    expect(valueKind("300", bracket)).toBe('a string ("[300]")');
    expect(valueKind(0.5, bracket)).toBe("the number [0.5]");
    expect(valueKind(-1, bracket)).toBe("the number [-1]");
    expect(valueKind(true, bracket)).toBe("a boolean [true]");
  });

  it("leaves a target's text to the quote, which makes it safe", () => {
    const hostile = "\u001b[2J\nforged line";
    const made = valueKind(hostile, (value) => JSON.stringify(value).slice(1, -1));
    expect(made).toBe('a string ("\\u001b[2J\\nforged line")');
    expect(made).not.toContain("\u001b");
  });
});
