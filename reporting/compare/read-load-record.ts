import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { ENDPOINT_TAG, METRIC } from "../../load/index.ts";
import { csvRecords, k6CsvTagReader, LatencyHistogram } from "../run/index.ts";
import type { UnitRecord } from "./load-record.ts";

interface UnitAccumulator {
  readonly events: LatencyHistogram;
  readonly token: LatencyHistogram;
  accepted: number;
  failed: number;
}

function newUnit(): UnitAccumulator {
  return { events: new LatencyHistogram(), token: new LatencyHistogram(), accepted: 0, failed: 0 };
}

async function readFileInto(
  file: string,
  unitMs: number,
  units: Map<number, UnitAccumulator>,
): Promise<void> {
  const raw = createReadStream(file);
  const input = file.endsWith(".gz") ? raw.pipe(createGunzip()) : raw;
  raw.on("error", (error) => input.destroy(error));
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let columns: { metric: number; time: number; value: number } | undefined;
  let tag: ReturnType<typeof k6CsvTagReader> | undefined;
  try {
    for await (const record of csvRecords(lines)) {
      if (columns === undefined || tag === undefined) {
        columns = {
          metric: record.indexOf("metric_name"),
          time: record.indexOf("timestamp"),
          value: record.indexOf("metric_value"),
        };
        tag = k6CsvTagReader(record);
        continue;
      }
      const metric = record[columns.metric];
      if (metric !== "http_req_duration" && metric !== METRIC.eventsFailed) continue;
      const ms = Number(record[columns.time]);
      const value = Number(record[columns.value]);
      if (!Number.isFinite(ms) || !Number.isFinite(value)) continue;
      const index = Math.floor(ms / unitMs);
      let unit = units.get(index);
      if (unit === undefined) {
        unit = newUnit();
        units.set(index, unit);
      }
      if (metric === METRIC.eventsFailed) {
        if (value > 0) unit.failed += 1;
        else unit.accepted += 1;
        continue;
      }
      const endpoint = tag(record, ENDPOINT_TAG);
      if (endpoint === "events") unit.events.add(value);
      else if (endpoint === "token") unit.token.add(value);
    }
  } finally {
    lines.close();
    raw.destroy();
  }
}

/**
 * Reads k6 CSV outputs (`--out csv=…,timeFormat=unix_milli`, gzipped when named .gz; one per instance, merged) into
 * units of `unitMs` from the first sample, and which unit holds the first event: one pass, memory bounded by the number of units, not of samples.
 */
export async function readLoadUnits(
  files: readonly string[],
  unitMs: number,
): Promise<{ readonly units: UnitRecord[]; readonly firstEventUnit: number }> {
  const units = new Map<number, UnitAccumulator>();
  for (const file of files) await readFileInto(file, unitMs, units);
  if (units.size === 0) return { units: [], firstEventUnit: 0 };
  const first = Math.min(...units.keys());
  const last = Math.max(...units.keys());
  // A token warm-up comes before the first event: its units hold token requests and nothing to accept.
  const withEvents = [...units.entries()].filter(([, u]) => u.accepted + u.failed + u.events.count > 0);
  const firstEvent = withEvents.length === 0 ? last : Math.min(...withEvents.map(([index]) => index));
  const out: UnitRecord[] = [];
  for (let index = first; index <= last; index += 1) {
    const unit = units.get(index) ?? newUnit();
    out.push({
      events: unit.events.entries(),
      eventsMax: unit.events.max,
      token: unit.token.entries(),
      tokenMax: unit.token.max,
      accepted: unit.accepted,
      failed: unit.failed,
    });
  }
  return { units: out, firstEventUnit: firstEvent - first };
}
