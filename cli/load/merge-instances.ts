import { writeFile } from "node:fs/promises";
import path from "node:path";
import { CannotRunError } from "../../core/index.ts";
import type { InstanceTotals, SummaryData } from "../../reporting/load/index.ts";
import { instanceTotals, mergeSummaries, readTrendSamples, trendKeys } from "../../reporting/load/index.ts";
import { MAX_RECORD_FILE_BYTES, readInputFile } from "../../transport/index.ts";

/** Trend metrics and sub-metrics a merge reads samples for; a harness run's summary has a few dozen. */
const MAX_TREND_KEYS = 1000;

/** What one k6 instance left behind: its end-of-test summary and its CSV samples. */
export interface InstanceOutput {
  readonly segment: string;
  readonly summaryFile: string;
  readonly samplesFile: string;
}

export interface MergedRun {
  readonly summary: SummaryData;
  readonly instances: readonly InstanceTotals[];
}

async function readSummary(file: string): Promise<SummaryData> {
  const reading = await readInputFile(file, MAX_RECORD_FILE_BYTES);
  if (!reading.ok) {
    throw new CannotRunError(
      `${file}: ${reading.problem}: that instance wrote no end-of-test summary the harness can read, so no verdict`,
    );
  }
  let data: SummaryData;
  try {
    data = JSON.parse(reading.text) as SummaryData;
  } catch {
    // The parser's message quotes the file's text, which is not ours to print.
    throw new CannotRunError(
      `${file} is not JSON: that instance's end-of-test summary is cut or damaged, so no verdict`,
    );
  }
  if (data === null || typeof data !== "object" || typeof data.metrics !== "object") {
    throw new CannotRunError(`${file} is not a k6 end-of-test summary`);
  }
  return data;
}

/**
 * Merges the instances' outputs into one k6-form summary written to `dir`/summary.json, from which the usual
 * reports are rendered; a missing or unreadable output is a CannotRunError (no partial verdict).
 */
export async function mergeInstances(outputs: readonly InstanceOutput[], dir: string): Promise<MergedRun> {
  const summaries = await Promise.all(outputs.map((o) => readSummary(o.summaryFile)));
  const keys = trendKeys(summaries);
  // Every sample is matched against the trends of its metric: their count multiplies the reading.
  if (keys.length > MAX_TREND_KEYS) {
    throw new CannotRunError(
      `the instances' summaries name ${keys.length} trend metrics, more than a run of the harness's scenarios has (at most ${MAX_TREND_KEYS}): these are not k6's summaries of this run, so no verdict`,
    );
  }
  let samples: Map<string, Float64Array>;
  try {
    samples = await readTrendSamples(
      outputs.map((o) => o.samplesFile),
      keys,
    );
  } catch (error) {
    throw new CannotRunError(`cannot read the instances' samples: ${(error as Error).message}`);
  }
  const summary = mergeSummaries(summaries, samples);
  await writeFile(path.join(dir, "summary.json"), `${JSON.stringify(summary)}\n`);
  return {
    summary,
    instances: outputs.map((o, i) => instanceTotals(o.segment, summaries[i] as SummaryData)),
  };
}
