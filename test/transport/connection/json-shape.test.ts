import { describe, expect, it } from "vitest";
import { JsonShape, MAX_JSON_DEPTH, MAX_JSON_ITEMS } from "../../../transport/connection/json-shape.ts";

const bytes = (text: string): Buffer => Buffer.from(text, "utf8");

/** What JsonShape says of `chunks` read in turn: the first reason given, or undefined. */
function shapeOf(...chunks: string[]): string | undefined {
  const shape = new JsonShape();
  for (const chunk of chunks) {
    const reason = shape.scan(bytes(chunk));
    if (reason !== undefined) return reason;
  }
  return undefined;
}

const DEEP = `response JSON nests deeper than ${MAX_JSON_DEPTH} levels`;
const MANY = `response JSON holds more than ${MAX_JSON_ITEMS} values`;

/** An array of `n` values: the array itself and n − 1 commas count n. */
const arrayOf = (n: number) => `[${"0,".repeat(n - 1)}0]`;

describe("JsonShape", () => {
  it("lets an answer of the API through", () => {
    const answer = JSON.stringify({
      access_token: "abc",
      token_type: "Bearer",
      expires_in: 300,
      scope: null,
    });
    expect(shapeOf(answer)).toBeUndefined();
    expect(JSON.parse(answer)).toBeTypeOf("object");
  });

  it(`takes ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(shapeOf(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(shapeOf(nested(MAX_JSON_DEPTH + 1))).toBe(DEEP);
    // Depth is what is open at once, not how many were opened.
    expect(shapeOf(`[${"[],".repeat(MAX_JSON_DEPTH * 2)}[]]`)).toBeUndefined();
  });

  it(`takes ${MAX_JSON_ITEMS} values and refuses one more, objects as arrays`, () => {
    expect(shapeOf(arrayOf(MAX_JSON_ITEMS))).toBeUndefined();
    expect(shapeOf(arrayOf(MAX_JSON_ITEMS + 1))).toBe(MANY);
    // An object and its members count alike: `{` and a comma between each two of n members.
    const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(",")}}`;
    expect(shapeOf(members(MAX_JSON_ITEMS))).toBeUndefined();
    expect(shapeOf(members(MAX_JSON_ITEMS + 1))).toBe(MANY);
  });

  it("reads brackets, commas and escaped quotes inside strings as text", () => {
    const text = `"${"[".repeat(MAX_JSON_DEPTH + 1)}\\"${",".repeat(MAX_JSON_ITEMS + 1)}\\\\"`;
    expect(JSON.parse(text)).toBeTypeOf("string");
    expect(shapeOf(`[${text}]`)).toBeUndefined();
    // After the string closes, brackets count again.
    expect(shapeOf(`[${text},${"[".repeat(MAX_JSON_DEPTH)}`)).toBe(DEEP);
  });

  it("keeps its place across chunks: a string or an escape cut in two", () => {
    const deep = "[".repeat(MAX_JSON_DEPTH + 1);
    expect(shapeOf('["abc', `${deep}"]`)).toBeUndefined();
    expect(shapeOf('["a\\', `"${deep}"]`)).toBeUndefined();
    expect(shapeOf("[".repeat(MAX_JSON_DEPTH), "[")).toBe(DEEP);
  });

  it("lets a body that is not JSON through, since it builds nothing when parsed", () => {
    const deep = "[".repeat(MAX_JSON_DEPTH + 1);
    expect(shapeOf(`<html>${deep}`)).toBeUndefined();
    // A second top-level value, or a closer with nothing open, makes the body no JSON.
    expect(shapeOf(`[] ${deep}`)).toBeUndefined();
    expect(shapeOf(`] ${deep}`)).toBeUndefined();
    // Once given up, it stays so.
    const shape = new JsonShape();
    expect(shape.scan(bytes("oops"))).toBeUndefined();
    expect(shape.scan(bytes(deep))).toBeUndefined();
  });

  it("skips a UTF-8 byte order mark and whitespace before the value", () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const shape = new JsonShape();
    expect(shape.scan(bom)).toBeUndefined();
    expect(shape.scan(bytes(` \r\n\t${"[".repeat(MAX_JSON_DEPTH + 1)}`))).toBe(DEEP);
  });
});
