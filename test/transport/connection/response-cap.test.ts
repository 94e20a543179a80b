import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ResponseTooLargeError } from "../../../core/index.ts";
import {
  BodyCap,
  MAX_JSON_DEPTH,
  MAX_JSON_ITEMS,
  MAX_RESPONSE_BODY_BYTES,
  readCappedText,
} from "../../../transport/connection/index.ts";

describe("BodyCap", () => {
  it("allows a body of exactly the cap and says so once one byte more arrives", () => {
    const cap = new BodyCap(10);
    expect(cap.add(Buffer.alloc(6))).toBeUndefined();
    expect(cap.add(Buffer.alloc(4))).toBeUndefined();
    expect(cap.exceeded).toBeUndefined();
    const error = cap.add(Buffer.alloc(1));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(cap.exceeded).toBe(error);
    expect(error?.message).toBe("response body exceeded 10 bytes");
  });

  it("defaults to 1 MiB and names it in its message", () => {
    const cap = new BodyCap();
    expect(cap.limitBytes).toBe(MAX_RESPONSE_BODY_BYTES);
    expect(MAX_RESPONSE_BODY_BYTES).toBe(1024 * 1024);
    expect(cap.add(Buffer.alloc(MAX_RESPONSE_BODY_BYTES + 1))?.message).toBe("response body exceeded 1 MiB");
    expect(new ResponseTooLargeError(64 * 1024).message).toBe("response body exceeded 64 KiB");
  });
});

describe("readCappedText", () => {
  it("reads a body within the cap as UTF-8 text, without a byte-order mark, as undici's text() does", async () => {
    const body = Readable.from([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":'), Buffer.from('"é"}')]);
    expect(await readCappedText(body, new BodyCap(64))).toBe('{"a":"é"}');
  });

  it("stops reading an endless body at the cap and destroys it", async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push(Buffer.alloc(1024, " "));
      },
    });
    await expect(readCappedText(endless, new BodyCap(8 * 1024))).rejects.toThrow(
      "response body exceeded 8 KiB",
    );
    expect(endless.destroyed).toBe(true);
    // Readable's own read-ahead pulls a few chunks more than were counted, never an endless number.
    expect(pulled).toBeLessThan(64);
  });
});

describe("BodyCap follows the JSON's shape", () => {
  const bytes = (text: string) => Buffer.from(text);

  it("stops a body nested past 64 levels, within the byte cap, before anything parses it", () => {
    expect(new BodyCap().add(bytes(`${"[".repeat(64)}${"]".repeat(64)}`))).toBeUndefined();
    const error = new BodyCap().add(bytes("[".repeat(65)));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error?.message).toBe(`response JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it("stops a flat body of more than 10,000 values, arrays and objects counted", () => {
    const many = (count: number) => `[${Array.from({ length: count - 1 }, () => "[]").join(",")}]`;
    expect(new BodyCap().add(bytes(many(MAX_JSON_ITEMS / 2)))).toBeUndefined();
    expect(new BodyCap().add(bytes(`[${"0,".repeat(MAX_JSON_ITEMS)}0]`))?.message).toBe(
      `response JSON holds more than ${MAX_JSON_ITEMS} values`,
    );
  });

  it("reads the shape across chunk boundaries, one byte at a time", () => {
    const cap = new BodyCap();
    let error: ResponseTooLargeError | undefined;
    for (const byte of bytes("[".repeat(MAX_JSON_DEPTH + 1))) error ??= cap.add(Buffer.of(byte));
    expect(error?.message).toBe(`response JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it("counts no bracket or comma inside a string, escaped quotes included", () => {
    const inString = JSON.stringify({ a: `\\"${"[,".repeat(50_000)}` });
    expect(new BodyCap().add(bytes(inString))).toBeUndefined();
  });

  it("lets through a body that is not JSON, however many braces it has, and one after a byte-order mark", () => {
    const html = `<html><style>${"p { a: b }\n".repeat(20_000)}</style></html>`;
    expect(new BodyCap().add(bytes(html))).toBeUndefined();
    const script = `function f() { return [${"{}".repeat(20_000)}]; }`;
    expect(new BodyCap().add(bytes(script))).toBeUndefined();
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes("[".repeat(65))]);
    expect(new BodyCap().add(bom)?.message).toBe(`response JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
