import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { ensureK6, K6_SAMPLES_OUTPUT } from "../../../k6-tooling/binary/k6-binary.ts";
import { readLoadUnits } from "../../../reporting/compare/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { listenOnLoopback } from "../../support/loopback.ts";

const CSV_HEADER =
  "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata";
const csvRow = (metric: string, ms: number, value: string, extra = "") =>
  `${metric},${ms},${value},,,,true,,POST,,,sustained,,202,,,,${extra},`;

/** The same samples as k6's CSV output writes them (among samples the record does not read) and as harness-samples does. */
const CSV = [
  CSV_HEADER,
  csvRow("http_reqs", 1_000, "1.000000", "endpoint=token"),
  csvRow("http_req_duration", 1_000, "3.250000", "endpoint=token"),
  csvRow("http_req_waiting", 1_010, "2.000000", "endpoint=events"),
  csvRow("http_req_duration", 2_010, "12.345000", "endpoint=events"),
  csvRow("events_failed", 2_010, "0.000000"),
  csvRow("http_req_duration", 2_020, "40.500000", "endpoint=events"),
  csvRow("events_failed", 2_020, "1.000000"),
  csvRow("http_req_duration", 3_999, "7.000000", "endpoint=events"),
  csvRow("events_failed", 3_999, "0.000000"),
].join("\n");
const HARNESS = [
  "# harness-samples 1: unix ms,endpoint or failed,value",
  "1000,token,3.25",
  "2010,events,12.345",
  "2010,failed,0",
  "2020,events,40.5",
  "2020,failed,1",
  "3999,events,7",
  "3999,failed,0",
].join("\n");

async function file(dir: string, name: string, text: string): Promise<string> {
  const target = path.join(dir, name);
  await writeFile(target, name.endsWith(".gz") ? gzipSync(text) : text);
  return target;
}

describe("readLoadUnits", () => {
  it("refuses samples spread over more units than a record keeps, before it writes them all", async ({
    tmpDir: dir,
  }) => {
    const far = ["# harness-samples 1:", "0,events,5", "0,failed,0", "100000000,events,5"].join("\n");
    await expect(readLoadUnits([await file(dir, "far.txt", far)], 500)).rejects.toThrow(
      "k6's samples span 27h47m, more than a load record keeps (100000 units of 500ms): a sample's timestamp is wrong",
    );
  });

  it("reads the harness's own samples output into the same units as k6's CSV output, plain or gzipped", async ({
    tmpDir: dir,
  }) => {
    const fromCsv = await readLoadUnits([await file(dir, "samples.csv", CSV)], 1000);
    expect(fromCsv.units).toHaveLength(3);
    expect(fromCsv.firstEventUnit).toBe(1);
    expect(fromCsv.units[1]).toMatchObject({ accepted: 1, failed: 1, eventsMax: 40.5 });
    expect(await readLoadUnits([await file(dir, "samples.txt", HARNESS)], 1000)).toEqual(fromCsv);
    expect(await readLoadUnits([await file(dir, "samples.txt.gz", HARNESS)], 1000)).toEqual(fromCsv);
  });
});

/** Requests of both endpoints and one failed-or-accepted sample an event, as the scenarios record them. */
const SCRIPT = `import http from "k6/http";
import { Rate } from "k6/metrics";
const failed = new Rate("events_failed");
export const options = { iterations: 60, vus: 3, discardResponseBodies: true };
export default function () {
  http.post(__ENV.URL + "/oauth/token", "grant_type=client_credentials", { tags: { endpoint: "token" } });
  const status = http.post(__ENV.URL + "/events", "{}", { tags: { endpoint: "events" } }).status;
  failed.add(status !== 202);
}
`;

describe("the harness's own k6 output against k6's CSV output, on one real run", () => {
  it("gives the baseline record the same units from both", async ({ tmpDir: dir }) => {
    const k6 = await ensureK6({ env: process.env, stderr: process.stderr });
    expect(k6.samplesOutput, "the harness's own k6 has the output").toBe(true);
    let n = 0;
    const target = await listenOnLoopback(
      createServer((request, response) => {
        request.resume();
        // Every fifth event is refused, so both counts and both endpoints' latencies are exercised.
        if (request.url === "/events") n += 1;
        response.writeHead(request.url === "/events" && n % 5 === 0 ? 500 : 202).end();
      }),
    );
    try {
      const script = await file(dir, "script.js", SCRIPT);
      const csv = path.join(dir, "run.csv.gz");
      const compact = path.join(dir, "run.txt.gz");
      await promisify(execFile)(
        k6.path,
        [
          "run",
          "--quiet",
          "--out",
          `csv=fileName=${csv},timeFormat=unix_milli`,
          "--out",
          `${K6_SAMPLES_OUTPUT}=${compact}`,
          script,
        ],
        {
          env: { PATH: process.env.PATH ?? "", URL: target.url, K6_NO_USAGE_REPORT: "true" },
          timeout: 60_000,
        },
      );
      const fromCsv = await readLoadUnits([csv], 100);
      const totals = fromCsv.units.reduce(
        (sum, unit) => ({ accepted: sum.accepted + unit.accepted, failed: sum.failed + unit.failed }),
        { accepted: 0, failed: 0 },
      );
      expect(totals).toEqual({ accepted: 48, failed: 12 });
      expect(await readLoadUnits([compact], 100)).toEqual(fromCsv);
    } finally {
      await target.close();
    }
  }, 120_000);
});
