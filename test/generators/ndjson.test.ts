import { describe, expect, it } from "vitest";
import { ndjsonChunks, toNdjsonLine } from "../../generators/index.ts";

describe("toNdjsonLine", () => {
  it("writes one JSON value per line, escaping newlines inside strings", () => {
    expect(toNdjsonLine({ a: "x\ny" })).toBe('{"a":"x\\ny"}\n');
    expect(toNdjsonLine(null)).toBe("null\n");
  });
});

describe("ndjsonChunks", () => {
  it("joins lines into newline-terminated chunks of about the requested size", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `{"n":${i}}`);
    const chunks = [...ndjsonChunks(lines, 64)];
    expect(chunks.join("")).toBe(`${lines.join("\n")}\n`);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.endsWith("\n")).toBe(true);
      expect(chunk.length).toBeLessThan(64 + 12);
    }
  });

  it("pulls lines only as chunks are taken, so huge outputs need no memory", () => {
    let pulled = 0;
    function* endless() {
      for (;;) {
        pulled += 1;
        yield "0123456789";
      }
    }
    const iterator = ndjsonChunks(endless(), 1100)[Symbol.iterator]();
    iterator.next();
    expect(pulled).toBe(100);
  });

  it("yields nothing for no lines", () => {
    expect([...ndjsonChunks([])]).toEqual([]);
  });
});
