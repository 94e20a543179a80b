import { describe, expect, it } from "vitest";
import { csvRecords } from "../../../k6-tooling/csv/csv-records.ts";

async function records(text: string): Promise<string[][]> {
  async function* lines() {
    yield* text.split("\n");
  }
  const out: string[][] = [];
  for await (const record of csvRecords(lines())) out.push(record);
  return out;
}

describe("csvRecords", () => {
  it("splits plain fields, keeps empty ones", async () => {
    expect(await records("a,b,,d")).toEqual([["a", "b", "", "d"]]);
  });

  it("reads quoted commas, doubled quotes and line breaks inside quotes (k6 error messages)", async () => {
    expect(await records('http_reqs,"dial tcp: refused, retry","say ""hi""",x\nnext,"two\nlines",y')).toEqual(
      [
        ["http_reqs", "dial tcp: refused, retry", 'say "hi"', "x"],
        ["next", "two\nlines", "y"],
      ],
    );
  });
});
