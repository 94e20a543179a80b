import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import { mergeInstances, mergeSummaries, percentile, readTrendSamples } from "../../../cli/load/index.ts";
import { CannotRunError } from "../../../core/index.ts";
import { EVENT_DURATION, EXPIRY, METRIC, TOKEN_DURATION } from "../../../load/index.ts";
import type { SummaryData } from "../../../reporting/load/index.ts";
import { it } from "../../support/fixtures.ts";

/** Recorded from `load sustained --instances 2 --rate 40 --duration 10s` against the embedded sandbox. */
const FIXTURE = fileURLToPath(new URL("./fixtures/two-instances/", import.meta.url));
const outputs = [1, 2].map((i) => ({
  segment: i === 1 ? "0:1/2" : "1/2:1",
  summaryFile: path.join(FIXTURE, `instance-${i}`, "summary.json"),
  samplesFile: path.join(FIXTURE, `instance-${i}`, "samples.csv.gz"),
}));

const readSummary = async (file: string) => JSON.parse(await readFile(file, "utf8")) as SummaryData;

/** Event latencies straight from the CSV text, parsed independently of the harness's reader. */
async function pooledEventLatencies(): Promise<number[]> {
  const values: number[] = [];
  for (const { samplesFile } of outputs) {
    const lines = gunzipSync(await readFile(samplesFile))
      .toString("utf8")
      .split("\n");
    const header = (lines[0] as string).split(",");
    for (const line of lines.slice(1)) {
      const fields = line.split(",");
      if (fields[header.indexOf("metric_name")] !== "http_req_duration") continue;
      if (!(fields[header.indexOf("extra_tags")] ?? "").includes("endpoint=events")) continue;
      values.push(Number(fields[header.indexOf("metric_value")]));
    }
  }
  return values.sort((a, b) => a - b);
}

describe("mergeInstances on recorded samples", () => {
  it("adds the instances' counts and takes percentiles from the pooled samples", async ({ tmpDir: dir }) => {
    const [one, two] = await Promise.all(outputs.map((o) => readSummary(o.summaryFile)));
    const merged = await mergeInstances(outputs, dir);
    const value = (data: SummaryData | undefined, metric: string, stat: string) =>
      data?.metrics[metric]?.values[stat] ?? 0;
    for (const [metric, stat] of [
      ["iterations", "count"],
      ["http_reqs", "count"],
      [METRIC.tokenRequests, "count"],
      [METRIC.eventsFailed, "fails"],
      [METRIC.eventsFailed, "passes"],
    ] as const) {
      expect(value(merged.summary, metric, stat)).toBe(value(one, metric, stat) + value(two, metric, stat));
    }
    expect(merged.instances.map((t) => t.eventsAccepted)).toEqual([201, 200]);
    expect(value(merged.summary, EVENT_DURATION, "count")).toBe(401);

    const pooled = await pooledEventLatencies();
    expect(pooled).toHaveLength(401);
    const rank = 0.95 * (pooled.length - 1);
    const low = pooled[Math.floor(rank)] as number;
    const pooledP95 = low + ((pooled[Math.ceil(rank)] as number) - low) * (rank - Math.floor(rank));
    const mergedP95 = value(merged.summary, EVENT_DURATION, "p(95)");
    expect(Math.abs(mergedP95 - pooledP95) / pooledP95).toBeLessThan(0.01);
    // The merged summary is what the reports read, written where they look for it.
    expect(await readSummary(path.join(dir, "summary.json"))).toEqual(merged.summary);
  });

  it("refuses summaries naming more trend metrics than any run has, before reading a sample", async ({
    tmpDir: dir,
  }) => {
    const summary = await readSummary(outputs[0]?.summaryFile as string);
    const trend = summary.metrics[EVENT_DURATION];
    const metrics = { ...summary.metrics };
    for (let i = 0; i < 2_000; i += 1)
      metrics[`${EVENT_DURATION}{i:${i}}`] = trend as SummaryData["metrics"][string];
    const swollen = path.join(dir, "summary-swollen.json");
    await writeFile(swollen, JSON.stringify({ ...summary, metrics }));
    const run = mergeInstances(
      outputs.map((o, i) => (i === 0 ? { ...o, summaryFile: swollen } : o)),
      dir,
    );
    await expect(run).rejects.toThrow(CannotRunError);
    await expect(run).rejects.toThrow(
      "the instances' summaries name 2011 trend metrics, more than a run of the harness's scenarios has (at most 1000)",
    );
  });

  it("says which instance's summary is not JSON, as a run it cannot judge, not an internal error", async ({
    tmpDir: dir,
  }) => {
    const cut = path.join(dir, "summary-cut.json");
    await writeFile(cut, (await readFile(outputs[0]?.summaryFile as string, "utf8")).slice(0, 200));
    const run = mergeInstances(
      outputs.map((o, i) => (i === 0 ? { ...o, summaryFile: cut } : o)),
      dir,
    );
    await expect(run).rejects.toThrow(CannotRunError);
    await expect(run).rejects.toThrow(`${cut} is not JSON`);
  });

  it("computes one instance's percentiles from its samples as k6 did in its own summary", async () => {
    const summary = await readSummary(outputs[0]?.summaryFile as string);
    const samples = await readTrendSamples([outputs[0]?.samplesFile as string], [EVENT_DURATION]);
    const ours = mergeSummaries([summary], samples).metrics[EVENT_DURATION]?.values ?? {};
    const k6 = summary.metrics[EVENT_DURATION]?.values ?? {};
    for (const stat of ["min", "med", "max", "avg", "p(90)", "p(95)", "p(99)", "count"]) {
      expect(ours[stat]).toBeCloseTo(k6[stat] as number, 6);
    }
  });

  it("matches tags k6 writes to columns (name, status) as it matches those in extra_tags", async () => {
    const byColumns = "http_req_duration{name:POST /oauth/token,status:200}";
    const samples = await readTrendSamples([outputs[0]?.samplesFile as string], [TOKEN_DURATION, byColumns]);
    expect(samples.get(byColumns)).toHaveLength(3);
    expect(samples.get(byColumns)).toEqual(samples.get(TOKEN_DURATION));
  });

  it("is no verdict when an instance left no summary", async ({ tmpDir: dir }) => {
    await expect(
      mergeInstances([...outputs, { ...outputs[0], summaryFile: path.join(dir, "none.json") } as never], dir),
    ).rejects.toThrow(/wrote no end-of-test summary/);
  });
});

describe("mergeSummaries", () => {
  const instance = (idle: number, outlived: number, ok: boolean): SummaryData => ({
    state: { testRunDurationMs: 10_000 },
    metrics: {
      [EXPIRY.idle]: {
        type: "counter",
        contains: "default",
        values: { count: idle, rate: idle / 10 },
        thresholds: { "count>=6": { ok } },
      },
      [EXPIRY.outlived]: {
        type: "counter",
        contains: "default",
        values: { count: outlived, rate: 0 },
        thresholds: { "count==0": { ok: outlived === 0 } },
      },
      vus: { type: "gauge", contains: "default", values: { value: 2, min: 1, max: 2 } },
      [EVENT_DURATION]: {
        type: "trend",
        contains: "time",
        values: { "p(95)": 1 },
        thresholds: { "p(95)<500": { ok: true }, "p(99.9)<2": { ok: true } },
      },
    },
  });

  it("judges thresholds on the whole run, not on any one instance", () => {
    // Each instance alone has too few confirmed expiries; together they have all six.
    const merged = mergeSummaries(
      [instance(2, 0, false), instance(2, 0, false), instance(2, 0, false)],
      new Map(),
    );
    expect(merged.metrics[EXPIRY.idle]?.values.count).toBe(6);
    expect(merged.metrics[EXPIRY.idle]?.thresholds?.["count>=6"]?.ok).toBe(true);
    expect(merged.metrics.vus?.values.value).toBe(6);
  });

  it("fails a threshold one instance alone would pass, and evaluates percentiles a threshold names", () => {
    const samples = new Map([[EVENT_DURATION, Float64Array.from({ length: 1000 }, (_, i) => i / 100)]]);
    const merged = mergeSummaries([instance(6, 0, true), instance(0, 1, true)], samples);
    expect(merged.metrics[EXPIRY.outlived]?.thresholds?.["count==0"]?.ok).toBe(false);
    expect(merged.metrics[EVENT_DURATION]?.values["p(99.9)"]).toBeCloseTo(9.98001, 9);
    expect(merged.metrics[EVENT_DURATION]?.thresholds?.["p(99.9)<2"]?.ok).toBe(false);
    expect(merged.metrics[EVENT_DURATION]?.thresholds?.["p(95)<500"]?.ok).toBe(true);
  });

  it("interpolates percentiles as k6's TrendSink does", () => {
    expect(percentile(Float64Array.from([1, 2, 3, 4]), 0.5)).toBe(2.5);
    expect(percentile(Float64Array.from([5]), 0.95)).toBe(5);
    expect(percentile(new Float64Array(0), 0.95)).toBe(0);
  });
});
