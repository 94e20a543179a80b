import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import {
  aggregateK6Csv,
  ratePerSecond,
  readK6CsvFile,
  TIME_SERIES_FORMAT,
  writeTimeSeriesFromK6Csv,
} from "../../../reporting/run/index.ts";
import { it } from "../../support/fixtures.ts";
import { syntheticK6Csv } from "./report-fixture.ts";

const HEADER =
  "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata";

/** Real k6 output (fixtures/k6-tags.js) of the harness's custom samples under its system tags. */
const REAL_K6_CSV = fileURLToPath(new URL("./fixtures/k6-tags.csv", import.meta.url));

async function* lines(text: string) {
  yield* text.split("\n").filter(Boolean);
}

describe("aggregateK6Csv", () => {
  it("reads a run of more seconds than a call may take arguments (a run of two days)", async () => {
    async function* twoDays() {
      yield HEADER;
      for (let second = 0; second < 172_800; second += 1) {
        yield `events_failed,${1_800_000_000 + second},0.000000,,,,,,,,,sustained,,,,,,,`;
      }
    }
    const series = await aggregateK6Csv(twoDays());
    expect(series.length).toBeLessThanOrEqual(1000);
    expect(series.stepSeconds * series.length).toBeGreaterThanOrEqual(172_800);
    expect(series.counts["events.accepted"]?.reduce((a, b) => a + b, 0)).toBe(172_800);
  });

  it("counts events, requests, refreshes by reason, expiries and violations per second", async () => {
    const series = await aggregateK6Csv(lines(syntheticK6Csv(1_800_000_000, 30)));
    expect(series.format).toBe(TIME_SERIES_FORMAT);
    expect(series).toMatchObject({
      startedAt: 1_800_000_000_000,
      stepSeconds: 1,
      length: 30,
      lastStepSeconds: 1,
    });
    const accepted = series.counts["events.accepted"] as number[];
    const failed = series.counts["events.failed"] as number[];
    expect(accepted).toHaveLength(30);
    expect(failed[21]).toBe(3);
    expect(failed.reduce((a, b) => a + b, 0)).toBe(3);
    expect((series.counts["requests.events"] as number[])[0]).toBe((accepted[0] ?? 0) + (failed[0] ?? 0));
    expect(series.counts["token.refreshes.lifetime"]?.reduce((a, b) => a + b, 0)).toBe(5);
    expect(series.counts["token.refreshes.idle"]?.[9]).toBe(1);
    expect(series.counts["token.requests.idle"]?.[24]).toBe(1);
    // Refreshes and failures are token_requests samples, by their reason and outcome: a failed one is no refresh.
    expect(series.counts["token.requests.rejected"]?.[21]).toBe(1);
    expect(series.counts["token.refreshes.rejected"]).toBeUndefined();
    expect(series.counts["token.request-failures"]?.reduce((a, b) => a + b, 0)).toBe(1);
    expect(series.counts["token.request-failures"]?.[21]).toBe(1);
    expect(series.counts["token.refreshes.initial"]).toBeUndefined();
    expect(series.counts["token.idle-expiries"]?.[24]).toBe(1);
    expect(series.counts["token.unexpected-expiries"]?.[17]).toBe(1);
    expect(series.counts["events.rejected.503"]?.[21]).toBe(3);
    expect(series.gauges.vus?.[5]).toBe(5);
    const p95 = series.latency.events?.p95 as Array<number | null>;
    // Latency rises between 12 s and 16 s in the fixture.
    expect(p95[14] as number).toBeGreaterThan(p95[5] as number);
    expect(series.latency.token?.p50[1]).toBeNull();
  });

  it("reads the tags of real k6 output, the status tag from k6's status column", async () => {
    const series = await aggregateK6Csv(lines(await readFile(REAL_K6_CSV, "utf8")));
    expect(series.counts).toEqual({
      "events.accepted": [1],
      "events.failed": [4],
      "events.rejected.503": [2],
      "events.rejected.network": [1],
      "events.rejected.no-token": [1],
      "token.idle-expiries": [1],
      "token.refreshes.idle": [1],
      "token.request-failures": [1],
      "token.requests.idle": [1],
      "token.requests.initial": [1],
      "token.requests.rejected": [1],
      "token.unexpected-expiries": [1],
    });
  });

  it("draws a long run at a coarser step, summing counts and merging latencies", async () => {
    const series = await aggregateK6Csv(lines(syntheticK6Csv(1_800_000_000, 30)), { maxPoints: 10 });
    expect(series).toMatchObject({ stepSeconds: 3, length: 10 });
    expect(series.counts["events.failed"]?.[7]).toBe(3);
    const fine = await aggregateK6Csv(lines(syntheticK6Csv(1_800_000_000, 30)));
    const sum = (values: readonly number[] | undefined) => (values ?? []).reduce((a, b) => a + b, 0);
    expect(sum(series.counts["events.accepted"])).toBe(sum(fine.counts["events.accepted"]));
  });

  it("starts steps at the first sample and measures the last, partial step (ms timestamps)", async () => {
    const csv = [
      HEADER,
      "events_failed,1800000000500,0.000000,,,,,,,,,s,,,,,,,",
      "events_failed,1800000001200,1.000000,,,,,,,,,s,,,,,,,",
      "http_req_blocked,1800000001200,0.1,,,,,,,,,s,,,,,,endpoint=events,",
      "data_sent,1800000001300,512,,,,,,,,,s,,,,,,,",
      "events_failed,1800000002100,0.000000,,,,,,,,,s,,,,,,,",
    ].join("\n");
    const series = await aggregateK6Csv(lines(csv));
    expect(series).toMatchObject({ startedAt: 1_800_000_000_500, length: 2, lastStepSeconds: 0.6 });
    expect(series.counts["events.accepted"]).toEqual([1, 1]);
    expect(series.counts["events.failed"]).toEqual([1, 0]);
    expect(Object.keys(series.counts)).toEqual(["events.accepted", "events.failed"]);
    // One event in the 0.6 s the last step lasted is 1.67/s, not 1/s.
    expect(ratePerSecond(series, series.counts["events.accepted"] ?? [])).toEqual([1, 1.67]);
    expect(ratePerSecond({ ...series, lastStepSeconds: 0.1 }, [4, 1])).toEqual([4, 1]);
  });

  it("gives an empty series for a run without samples and refuses a file that is not k6 CSV", async () => {
    expect(await aggregateK6Csv(lines(HEADER))).toMatchObject({ length: 0, counts: {} });
    await expect(aggregateK6Csv(lines("a,b,c\n1,2,3"))).rejects.toThrow(/not k6 CSV output/);
  });
});

describe("readK6CsvFile and writeTimeSeriesFromK6Csv", () => {
  it("reads gzipped output and replaces the raw file by timeseries.json", async ({ tmpDir: dir }) => {
    const csv = path.join(dir, "metrics.csv.gz");
    await writeFile(csv, gzipSync(syntheticK6Csv(1_800_000_000, 5)));
    expect((await readK6CsvFile(csv)).length).toBe(5);
    const out = path.join(dir, "timeseries.json");
    const series = await writeTimeSeriesFromK6Csv(csv, out);
    expect(series.length).toBe(5);
    await expect(stat(csv)).rejects.toThrow(/ENOENT/);
    expect((await stat(out)).size).toBeGreaterThan(100);
  });
});
