import type { K6CsvTag } from "../../k6-tooling/index.ts";
import { csvRecords, k6CsvTagReader, openCsvLines } from "../../k6-tooling/index.ts";

/** A trend metric or sub-metric as k6 names it in a summary: `name` or `name{tag:value,…}`. */
interface TrendKey {
  readonly key: string;
  readonly name: string;
  readonly tags: ReadonlyArray<readonly [string, string]>;
}

function parseKey(key: string): TrendKey {
  const open = key.indexOf("{");
  if (open < 0) return { key, name: key, tags: [] };
  const tags = key
    .slice(open + 1, -1)
    .split(",")
    .map((pair) => {
      const colon = pair.indexOf(":");
      return [pair.slice(0, colon).trim(), pair.slice(colon + 1).trim()] as const;
    });
  return { key, name: key.slice(0, open), tags };
}

/** A growable list of samples in a Float64Array (8 bytes a sample, no boxing). */
class SampleList {
  private values = new Float64Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length] = value;
    this.length += 1;
  }
  sorted(): Float64Array {
    return this.values.slice(0, this.length).sort();
  }
}

/**
 * Collects the samples of the given trend metrics from k6 CSV outputs (`--out csv=…`, gzipped when named .gz):
 * pooling every instance's samples makes merged percentiles exact.
 */
export async function readTrendSamples(
  files: readonly string[],
  keys: readonly string[],
): Promise<Map<string, Float64Array>> {
  const wanted = keys.map(parseKey);
  const lists = new Map(wanted.map((k) => [k.key, new SampleList()]));
  // By metric name: a sample is matched against its own metric's trends only, not against every trend.
  const byName = new Map<string, TrendKey[]>();
  for (const key of wanted) byName.set(key.name, [...(byName.get(key.name) ?? []), key]);
  for (const file of files) {
    const { lines, close } = openCsvLines(file);
    try {
      let tagOf: K6CsvTag | undefined;
      let metricColumn = -1;
      let valueColumn = -1;
      for await (const record of csvRecords(lines)) {
        if (tagOf === undefined) {
          metricColumn = record.indexOf("metric_name");
          valueColumn = record.indexOf("metric_value");
          if (metricColumn < 0 || valueColumn < 0) throw new Error(`${file} is not k6 CSV output`);
          tagOf = k6CsvTagReader(record);
          continue;
        }
        const tagOfRecord = tagOf;
        for (const key of byName.get(record[metricColumn] ?? "") ?? []) {
          const matches = key.tags.every(([tag, value]) => tagOfRecord(record, tag) === value);
          if (matches) lists.get(key.key)?.push(Number(record[valueColumn]));
        }
      }
    } finally {
      close();
    }
  }
  return new Map([...lists].map(([key, list]) => [key, list.sorted()]));
}

/** k6's percentile of sorted samples (TrendSink.P): linear interpolation between the closest ranks. */
export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  if (sorted.length === 1) return sorted[0] as number;
  const rank = fraction * (sorted.length - 1);
  const low = sorted[Math.floor(rank)] as number;
  const high = sorted[Math.ceil(rank)] as number;
  return low + (high - low) * (rank - Math.floor(rank));
}
