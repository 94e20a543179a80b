import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import { openCsvLines } from "../../../k6-tooling/csv/csv-lines.ts";
import { csvRecords } from "../../../k6-tooling/csv/csv-records.ts";
import { readLoadUnits } from "../../../reporting/compare/index.ts";
import { readTrendSamples } from "../../../reporting/load/trend-samples.ts";
import { readK6CsvFile } from "../../../reporting/run/index.ts";
import { it } from "../../support/fixtures.ts";

async function allLines(file: string, max?: number): Promise<string[]> {
  const { lines, close } = openCsvLines(file, max);
  const out: string[] = [];
  try {
    for await (const line of lines) out.push(line);
  } finally {
    close();
  }
  return out;
}

/** 50 MB of one line, gzipped to about 50 KB: what a samples file must never cost in memory. */
const oneLongLine = () => gzipSync(Buffer.alloc(50 * 1024 * 1024, "a"));

describe("openCsvLines", () => {
  it("gives the lines node's own split gives, gzipped or not, across chunk boundaries", async ({
    tmpDir,
  }) => {
    // Lines of every length up to 3 × 64 KiB chunks' worth, so line breaks fall on and around chunk edges.
    const text = Array.from({ length: 400 }, (_, i) => "x".repeat((i * 997) % 30_000)).join("\r\n");
    const plain = path.join(tmpDir, "samples.csv");
    const packed = path.join(tmpDir, "samples.csv.gz");
    await writeFile(plain, text);
    await writeFile(packed, gzipSync(text));
    const expected = (await readFile(plain, "utf8")).split("\r\n");
    expect(await allLines(plain)).toEqual(expected);
    expect(await allLines(packed)).toEqual(expected);
  });

  it("takes a line of exactly the limit and refuses one byte more", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "edge.csv");
    await writeFile(file, `${"a".repeat(1000)}\n${"b".repeat(1000)}\n`);
    expect(await allLines(file, 1000)).toHaveLength(2);
    await writeFile(file, `${"a".repeat(1000)}\n${"b".repeat(1001)}\n`);
    await expect(allLines(file, 1000)).rejects.toThrow(`${file} has a line longer than`);
  });

  it("refuses a gzip that inflates to one endless line, before holding it", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "bomb.csv.gz");
    await writeFile(file, oneLongLine());
    await expect(allLines(file)).rejects.toThrow("has a line longer than 64 KiB: it is no k6 samples file");
  });

  it("ends with the error of a missing file or a damaged gzip", async ({ tmpDir }) => {
    await expect(allLines(path.join(tmpDir, "absent.csv"))).rejects.toThrow("ENOENT");
    const damaged = path.join(tmpDir, "damaged.csv.gz");
    await writeFile(damaged, gzipSync("metric_name,timestamp\n").subarray(0, 12));
    await expect(allLines(damaged)).rejects.toThrow();
  });
});

describe("every samples reader is bounded by the line limit", () => {
  it("refuses the endless line in k6's CSV, the baseline's samples and the merge's samples", async ({
    tmpDir,
  }) => {
    const file = path.join(tmpDir, "samples.csv.gz");
    await writeFile(file, oneLongLine());
    await expect(readK6CsvFile(file)).rejects.toThrow("has a line longer than 64 KiB");
    await expect(readLoadUnits([file], 1000)).rejects.toThrow("has a line longer than 64 KiB");
    await expect(readTrendSamples([file], ["http_req_duration"])).rejects.toThrow(
      "has a line longer than 64 KiB",
    );
  });
});

describe("csvRecords", () => {
  it("refuses a quoted field that runs on over many short lines past the limit", async () => {
    async function* lines() {
      yield 'metric_name,"note';
      for (let i = 0; i < 100; i += 1) yield "x".repeat(100);
    }
    const read = async () => {
      for await (const _ of csvRecords(lines(), 5_000));
    };
    await expect(read()).rejects.toThrow("a CSV record longer than 5000 characters");
  });
});
