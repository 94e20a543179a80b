import { writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { percentile, readTrendSamples } from "../../../reporting/load/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const HEADER =
  "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata";
/** One k6 CSV row: the endpoint tag in extra_tags, as the harness's scenarios tag requests. */
const row = (metric: string, value: number, status: string, endpoint?: string) =>
  `${metric},1700000000,${value},,,,true,,POST,,HTTP/1.1,sustained,,${status},,,http://127.0.0.1/x,${endpoint === undefined ? "" : `endpoint=${endpoint}`},`;

const EVENTS = "http_req_duration{endpoint:events}";
const TOKEN = "http_req_duration{endpoint:token}";
const ACCEPTED = "http_req_duration{endpoint:events,status:202}";

describe("readTrendSamples", () => {
  it("pools each trend's samples over plain and gzipped files, sorted, matching tags from columns and extra_tags", async ({
    tmpDir,
  }) => {
    const plain = path.join(tmpDir, "instance-1.csv");
    const zipped = path.join(tmpDir, "instance-2.csv.gz");
    await writeFile(
      plain,
      [
        HEADER,
        row("http_req_duration", 30, "202", "events"),
        row("http_req_duration", 7, "200", "token"),
        row("iterations", 1, ""),
      ].join("\n"),
    );
    await writeFile(
      zipped,
      gzipSync(
        [
          HEADER,
          row("http_req_duration", 10, "503", "events"),
          row("http_req_duration", 20, "202", "events"),
          "",
        ].join("\n"),
      ),
    );
    const samples = await readTrendSamples(
      [plain, zipped],
      [EVENTS, TOKEN, ACCEPTED, "http_req_duration", "iteration_duration"],
    );
    expect([...samples.keys()]).toEqual([EVENTS, TOKEN, ACCEPTED, "http_req_duration", "iteration_duration"]);
    expect([...(samples.get(EVENTS) ?? [])]).toEqual([10, 20, 30]);
    expect([...(samples.get(TOKEN) ?? [])]).toEqual([7]);
    expect([...(samples.get(ACCEPTED) ?? [])]).toEqual([20, 30]);
    expect([...(samples.get("http_req_duration") ?? [])]).toEqual([7, 10, 20, 30]);
    expect(samples.get("iteration_duration")?.length).toBe(0);
  });

  it("keeps every sample past its first thousand, in numeric order", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "many.csv");
    const values = Array.from({ length: 1500 }, (_, i) => (i * 7919) % 1500);
    await writeFile(
      file,
      [HEADER, ...values.map((v) => row("http_req_duration", v, "202", "events"))].join("\n"),
    );
    const sorted = (await readTrendSamples([file], [EVENTS])).get(EVENTS);
    expect(sorted?.length).toBe(1500);
    expect(sorted?.[0]).toBe(0);
    expect(sorted?.[9]).toBe(9);
    expect(sorted?.[1499]).toBe(1499);
  });

  it("refuses a file that is not k6's CSV output, naming it", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "other.csv");
    await writeFile(file, "name,value\nhttp_req_duration,3\n");
    await expect(readTrendSamples([file], [EVENTS])).rejects.toThrow(`${file} is not k6 CSV output`);
  });

  it("gives every key an empty list when no file is named", async () => {
    const samples = await readTrendSamples([], [EVENTS]);
    expect(samples.get(EVENTS)?.length).toBe(0);
  });
});

describe("percentile", () => {
  it("interpolates between the closest ranks as k6 does", () => {
    const sorted = Float64Array.from([10, 20, 30, 40, 50]);
    expect(percentile(sorted, 0)).toBe(10);
    expect(percentile(sorted, 1)).toBe(50);
    expect(percentile(sorted, 0.5)).toBe(30);
    // Rank 0.9 × 4 = 3.6: six tenths of the way from 40 to 50.
    expect(percentile(sorted, 0.9)).toBeCloseTo(46, 9);
    expect(percentile(Float64Array.from([4]), 0.99)).toBe(4);
    expect(percentile(new Float64Array(0), 0.5)).toBe(0);
  });
});
