import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  BodyCap,
  MAX_RESPONSE_BODY_BYTES,
  ResponseTooLargeError,
  readCappedText,
} from "../../../contracts/connection/index.ts";

describe("BodyCap", () => {
  it("allows a body of exactly the cap and says so once one byte more arrives", () => {
    const cap = new BodyCap(10);
    expect(cap.add(6)).toBeUndefined();
    expect(cap.add(4)).toBeUndefined();
    expect(cap.exceeded).toBeUndefined();
    const error = cap.add(1);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(cap.exceeded).toBe(error);
    expect(error?.message).toBe("response body exceeded 10 bytes");
  });

  it("defaults to 1 MiB and names it in its message", () => {
    const cap = new BodyCap();
    expect(cap.limitBytes).toBe(MAX_RESPONSE_BODY_BYTES);
    expect(MAX_RESPONSE_BODY_BYTES).toBe(1024 * 1024);
    expect(cap.add(MAX_RESPONSE_BODY_BYTES + 1)?.message).toBe("response body exceeded 1 MiB");
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
