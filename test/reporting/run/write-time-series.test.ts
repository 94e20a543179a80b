import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { TIME_SERIES_FORMAT, writeTimeSeriesFromK6Csv } from "../../../reporting/run/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { syntheticK6Csv } from "./report-fixture.ts";

describe("writeTimeSeriesFromK6Csv", () => {
  it("writes the per-second series as JSON, the same series it returns, and removes the CSV", async ({
    tmpDir,
  }) => {
    const csv = path.join(tmpDir, "metrics.csv");
    await writeFile(csv, syntheticK6Csv(1_800_000_000, 4));
    const out = path.join(tmpDir, "timeseries.json");
    const series = await writeTimeSeriesFromK6Csv(csv, out);
    const text = await readFile(out, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(series)));
    expect(series).toMatchObject({
      format: TIME_SERIES_FORMAT,
      length: 4,
      stepSeconds: 1,
      startedAt: 1_800_000_000_000,
    });
    await expect(stat(csv)).rejects.toThrow(/ENOENT/);
  });

  it("removes the CSV even when the series cannot be written, and says why", async ({ tmpDir }) => {
    const csv = path.join(tmpDir, "metrics.csv");
    await writeFile(csv, syntheticK6Csv(1_800_000_000, 2));
    const out = path.join(tmpDir, "no-such-folder", "timeseries.json");
    await expect(writeTimeSeriesFromK6Csv(csv, out)).rejects.toThrow(/ENOENT/);
    await expect(stat(csv)).rejects.toThrow(/ENOENT/);
  });

  it("fails on a CSV that is not there, and writes nothing", async ({ tmpDir }) => {
    const out = path.join(tmpDir, "timeseries.json");
    await expect(writeTimeSeriesFromK6Csv(path.join(tmpDir, "missing.csv"), out)).rejects.toThrow();
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });
});
