import { PassThrough } from "node:stream";
import { closed, PartOutput } from "../../../cli/run/part-output.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

/** A stream that records what reaches it, as a terminal (with a width) or a log. */
function sink(terminal?: { readonly columns: number }) {
  const writes: string[] = [];
  const out = Object.assign(new PassThrough(), terminal ? { isTTY: true, columns: terminal.columns } : {});
  out.setEncoding("utf8").on("data", (chunk: string) => writes.push(chunk));
  return { out, text: () => writes.join("") };
}

describe("PartOutput in a log", () => {
  it("indents every line it forwards, holding a partial line until its end", async () => {
    const { out, text } = sink();
    const part = new PartOutput(out);
    expect(part.isTTY).toBe(false);
    expect(part.columns).toBeUndefined();
    part.write("first li");
    await new Promise((resolve) => setImmediate(resolve));
    expect(text()).toBe("");
    part.write("ne\nsecond\n\nthird");
    part.write(" and last");
    await closed(part);
    expect(text()).toBe("│ first line\n│ second\n│ \n│ third and last\n");
  });

  it("keeps the last twenty lines that say something", async () => {
    const part = new PartOutput(sink().out);
    for (let line = 1; line <= 25; line += 1) part.write(`line ${line}\n\n`);
    await closed(part);
    expect(part.recent).toHaveLength(20);
    expect(part.recent[0]).toBe("line 6");
    expect(part.recent.at(-1)).toBe("line 25");
  });

  it("gives the part's own last error line, without a pointer to the console", async () => {
    const part = new PartOutput(sink().out);
    expect(part.lastError()).toBeUndefined();
    part.write("event-harness: the first problem\nprogress 3/9\n");
    part.write("event-harness: cannot reach the token endpoint; see the preflight above.\nsome detail\n");
    await closed(part);
    expect(part.lastError()).toBe("cannot reach the token endpoint");
  });
});

describe("PartOutput on a terminal", () => {
  it("is narrower by its indent, and closes a rewritten line at the end of the part", async () => {
    const { out, text } = sink({ columns: 80 });
    const part = new PartOutput(out);
    expect(part.isTTY).toBe(true);
    expect(part.columns).toBe(78);
    part.write("\r\x1b[2K12 events sent");
    part.write("\r\x1b[2K24 events sent");
    await closed(part);
    expect(text()).toBe("\r\x1b[2K│ 12 events sent\r\x1b[2K│ 24 events sent\n");
  });

  it("ends a rewritten line once, whether the part ends it or the next line starts", async () => {
    const { out, text } = sink({ columns: 80 });
    const part = new PartOutput(out);
    part.write("\r\x1b[2Kprogress 1");
    part.write("\nnext\n");
    part.write("\r\x1b[2Kprogress 2");
    part.write("last\n");
    await closed(part);
    expect(text()).toBe("\r\x1b[2K│ progress 1\n│ next\n\r\x1b[2K│ progress 2\n│ last\n");
  });

  it("forwards a rewrite inside a pending line as part of that line", async () => {
    const { out, text } = sink({ columns: 80 });
    const part = new PartOutput(out);
    part.write("partial ");
    part.write("\r\x1b[2Kprogress\n");
    await closed(part);
    expect(text().startsWith("│ partial ")).toBe(true);
    expect(text().endsWith("progress\n")).toBe(true);
  });
});
