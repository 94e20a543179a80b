import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { fitToWidth, LOG_PROGRESS_EVERY_MS, ProgressLine } from "../../cli/progress-line.ts";
import { PartOutput } from "../../cli/run/part-output.ts";

function stream(terminal?: { columns: number }) {
  const out = new PassThrough().setEncoding("utf8");
  const writes: string[] = [];
  out.on("data", (chunk: string) => writes.push(chunk));
  return { out: terminal ? Object.assign(out, { isTTY: true, columns: terminal.columns }) : out, writes };
}

describe("fitToWidth", () => {
  it("keeps a line that fits and cuts a longer one to the width, ending in …", () => {
    expect(fitToWidth("abc", 3)).toBe("abc");
    expect(fitToWidth("abcdef", 4)).toBe("abc…");
    expect([...fitToWidth("·".repeat(200), 79)].length).toBe(79);
  });
});

describe("ProgressLine", () => {
  it("in a log, prints the first line at once and then at most one every 30 s", () => {
    let now = 1_000_000;
    const { out, writes } = stream();
    const progress = new ProgressLine(out, { now: () => now });
    for (const step of [0, 2_000, 10_000, 29_999 - 12_000, 1, 5_000, LOG_PROGRESS_EVERY_MS]) {
      now += step;
      progress.show(`at ${now - 1_000_000}`);
    }
    progress.end();
    expect(writes).toEqual(["at 0\n", "at 30000\n", "at 65000\n"]);
  });

  it("on a terminal, rewrites one line in place, cut to the width less one column, and ends it", () => {
    const { out, writes } = stream({ columns: 20 });
    const progress = new ProgressLine(out);
    progress.show("short");
    progress.show("a line much longer than twenty columns");
    progress.end();
    expect(writes).toEqual(["\r\x1b[2Kshort", "\r\x1b[2Ka line much longer…", "\n"]);
  });
});

describe("a run's part output on a terminal", () => {
  it("passes a rewritten progress line through, indented and narrower, and closes it before the next line", async () => {
    const { out, writes } = stream({ columns: 22 });
    const part = new PartOutput(out);
    expect(part.isTTY).toBe(true);
    expect(part.columns).toBe(20);
    const progress = new ProgressLine(part);
    progress.show("a line much longer than twenty columns");
    progress.end();
    part.write("done\n");
    await new Promise<void>((resolve) => part.end(resolve));
    expect(writes.join("")).toBe("\r\x1b[2K│ a line much longer…\n│ done\n");
  });
});
