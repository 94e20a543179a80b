import { CannotRunError, formatDurationCompact } from "../../core/index.ts";
import { csvRecords, k6CsvTagReader, openCsvLines } from "../../k6-tooling/index.ts";
import { ENDPOINT_TAG, METRIC } from "../../load/index.ts";
import { LatencyHistogram } from "./latency-histogram.ts";
import type { UnitRecord } from "./load-record.ts";
import { MAX_RECORD_UNITS } from "./load-record-schema.ts";

interface UnitAccumulator {
  readonly events: LatencyHistogram;
  readonly token: LatencyHistogram;
  accepted: number;
  failed: number;
}

function newUnit(): UnitAccumulator {
  return { events: new LatencyHistogram(), token: new LatencyHistogram(), accepted: 0, failed: 0 };
}

/** The first line of the harness's own k6 output (tools/k6/samples): `unix ms,endpoint or failed,value` lines follow. */
const HARNESS_SAMPLES_HEADER = "# harness-samples 1:";
/** Its kind for an event's events_failed sample; any other kind is the endpoint of a request's latency. */
const FAILED_KIND = "failed";

/** Adds samples to their units: request latency by endpoint, and accepted or failed events. */
function unitAdder(unitMs: number, units: Map<number, UnitAccumulator>) {
  const unitAt = (ms: number): UnitAccumulator => {
    const index = Math.floor(ms / unitMs);
    let unit = units.get(index);
    if (unit === undefined) {
      unit = newUnit();
      units.set(index, unit);
    }
    return unit;
  };
  return {
    latency(ms: number, endpoint: string | undefined, value: number): void {
      if (endpoint === "events") unitAt(ms).events.add(value);
      else if (endpoint === "token") unitAt(ms).token.add(value);
    },
    event(ms: number, failed: boolean): void {
      const unit = unitAt(ms);
      if (failed) unit.failed += 1;
      else unit.accepted += 1;
    },
  };
}

type UnitAdder = ReturnType<typeof unitAdder>;

/** k6's CSV output: every sample of every metric, of which the record reads two. */
async function readCsvInto(lines: AsyncIterable<string>, add: UnitAdder): Promise<void> {
  let columns: { metric: number; time: number; value: number } | undefined;
  let tag: ReturnType<typeof k6CsvTagReader> | undefined;
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
    if (metric === METRIC.eventsFailed) add.event(ms, value > 0);
    else add.latency(ms, tag(record, ENDPOINT_TAG), value);
  }
}

/** The harness's own output: one `ms,kind,value` line for each sample the record reads. */
async function readHarnessSamplesInto(lines: AsyncIterator<string>, add: UnitAdder): Promise<void> {
  for (let next = await lines.next(); next.done !== true; next = await lines.next()) {
    const [time, kind, raw] = next.value.split(",");
    const ms = Number(time);
    const value = Number(raw);
    if (kind === undefined || !Number.isFinite(ms) || !Number.isFinite(value)) continue;
    if (kind === FAILED_KIND) add.event(ms, value > 0);
    else add.latency(ms, kind, value);
  }
}

async function readFileInto(file: string, add: UnitAdder): Promise<void> {
  const { lines, close } = openCsvLines(file);
  try {
    const iterator = lines[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done === true) return;
    if (first.value.startsWith(HARNESS_SAMPLES_HEADER)) {
      await readHarnessSamplesInto(iterator, add);
      return;
    }
    // The CSV reader sees the header line it was handed first, then the rest.
    async function* again(): AsyncGenerator<string> {
      yield first.value as string;
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
        yield next.value;
    }
    await readCsvInto(again(), add);
  } finally {
    close();
  }
}

/**
 * Reads k6's samples (the harness's own `--out harness-samples=…`, or k6's `--out csv=…,timeFormat=unix_milli`;
 * gzipped when named .gz; one per instance, merged) into
 * units of `unitMs` from the first sample, and which unit holds the first event: one pass, memory bounded by the number of units, not of samples.
 */
export async function readLoadUnits(
  files: readonly string[],
  unitMs: number,
): Promise<{ readonly units: UnitRecord[]; readonly firstEventUnit: number }> {
  const units = new Map<number, UnitAccumulator>();
  const add = unitAdder(unitMs, units);
  for (const file of files) await readFileInto(file, add);
  if (units.size === 0) return { units: [], firstEventUnit: 0 };
  // Loops, not Math.min(...keys): a spread of a long run's units overflows the stack.
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  // A token warm-up comes before the first event: its units hold token requests and nothing to accept.
  let firstEvent = Number.POSITIVE_INFINITY;
  for (const [index, unit] of units) {
    first = Math.min(first, index);
    last = Math.max(last, index);
    if (unit.accepted + unit.failed + unit.events.count > 0) firstEvent = Math.min(firstEvent, index);
  }
  if (firstEvent === Number.POSITIVE_INFINITY) firstEvent = last;
  // The units between the first sample and the last are all written: samples far apart would fill memory first.
  if (last - first + 1 > MAX_RECORD_UNITS) {
    throw new CannotRunError(
      `k6's samples span ${formatDurationCompact((last - first + 1) * unitMs)}, more than a load record keeps (${MAX_RECORD_UNITS} units of ${formatDurationCompact(unitMs)}): a sample's timestamp is wrong`,
    );
  }
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
