import { rm, writeFile } from "node:fs/promises";
import { readK6CsvFile } from "./k6-time-series.ts";
import type { TimeSeries } from "./time-series.ts";

/**
 * Turns k6's raw CSV samples into the per-second timeseries.json the report draws, then removes the CSV: it is
 * large, and the k6 dashboard already keeps a full record of the run.
 */
export async function writeTimeSeriesFromK6Csv(csvFile: string, outFile: string): Promise<TimeSeries> {
  try {
    const series = await readK6CsvFile(csvFile);
    await writeFile(outFile, `${JSON.stringify(series)}\n`);
    return series;
  } finally {
    await rm(csvFile, { force: true });
  }
}
