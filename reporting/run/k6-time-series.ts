import type { K6CsvTag } from "../../k6-tooling/index.ts";
import { csvRecords, k6CsvTagReader, openCsvLines } from "../../k6-tooling/index.ts";
import type { TokenRequestReason } from "../../load/index.ts";
import {
  ENDPOINT_TAG,
  EXPIRY_KIND_TAG,
  METRIC,
  REFRESH_REASONS,
  TOKEN_OUTCOME,
  TOKEN_OUTCOME_TAG,
} from "../../load/index.ts";
import { LatencyHistogram } from "../compare/index.ts";
import type { LatencySeries, TimeSeries } from "./time-series.ts";
import { TIME_SERIES_FORMAT } from "./time-series.ts";

/** A chart has room for about this many points; longer runs are drawn at a coarser step. */
export const DEFAULT_MAX_POINTS = 600;

interface Bucket {
  readonly counts: Map<string, number>;
  readonly latency: Map<string, LatencyHistogram>;
  readonly gauges: Map<string, number>;
}

function newBucket(): Bucket {
  return { counts: new Map(), latency: new Map(), gauges: new Map() };
}

/** Where one k6 sample goes (a count may go to more than one series); undefined for samples the charts do not show. */
type Placement =
  | { readonly kind: "count"; readonly keys: readonly string[]; readonly by: "sample" | "value" }
  | { readonly kind: "latency"; readonly key: string }
  | { readonly kind: "gauge"; readonly key: string };

function place(
  metric: string,
  value: number,
  tag: (name: string) => string | undefined,
): Placement | undefined {
  switch (metric) {
    case METRIC.eventsFailed:
      return { kind: "count", keys: [value > 0 ? "events.failed" : "events.accepted"], by: "sample" };
    case "http_reqs": {
      const endpoint = tag(ENDPOINT_TAG);
      return endpoint ? { kind: "count", keys: [`requests.${endpoint}`], by: "value" } : undefined;
    }
    case "http_req_duration": {
      const endpoint = tag(ENDPOINT_TAG);
      return endpoint ? { kind: "latency", key: endpoint } : undefined;
    }
    case METRIC.tokenRequests: {
      // The series keep the names they had when refreshes and failures were metrics of their own.
      const reason = tag("reason") ?? "other";
      const keys = [`token.requests.${reason}`];
      const outcome = tag(TOKEN_OUTCOME_TAG);
      if (outcome === TOKEN_OUTCOME.failed) keys.push("token.request-failures");
      else if (outcome === TOKEN_OUTCOME.issued && REFRESH_REASONS.includes(reason as TokenRequestReason))
        keys.push(`token.refreshes.${reason}`);
      return { kind: "count", keys, by: "value" };
    }
    case METRIC.expiries: {
      // The series keep the names they had when these were three metrics.
      const kind = tag(EXPIRY_KIND_TAG);
      const key =
        kind === "idle"
          ? "token.idle-expiries"
          : kind === "unexpected"
            ? "token.unexpected-expiries"
            : kind === "outlived"
              ? "token.idle-outlived"
              : undefined;
      return key === undefined ? undefined : { kind: "count", keys: [key], by: "value" };
    }
    case METRIC.eventsRejected:
      // k6 writes this `status` tag to its status column, as it does the HTTP status of its own samples.
      return { kind: "count", keys: [`events.rejected.${tag("status") ?? "other"}`], by: "value" };
    case "dropped_iterations":
      return { kind: "count", keys: ["iterations.dropped"], by: "value" };
    case "vus":
      return { kind: "gauge", key: "vus" };
    default:
      return undefined;
  }
}

/** Unix ms of a k6 CSV timestamp, whichever of k6's time formats (seconds, ms, µs, RFC 3339) it is in. */
function timestampMs(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (Number.isFinite(value)) {
    if (value > 1e14) return value / 1000;
    return value > 1e11 ? value : value * 1000;
  }
  const parsed = Date.parse(raw);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * Aggregates k6's CSV output (`k6 run --out csv=FILE`) into per-second columns: events accepted and failed, requests
 * per endpoint, latency percentiles, token requests and refreshes by reason, idle expiries and violations, VUs.
 */
export async function aggregateK6Csv(
  lines: AsyncIterable<string>,
  { maxPoints = DEFAULT_MAX_POINTS }: { maxPoints?: number } = {},
): Promise<TimeSeries> {
  const seconds = new Map<number, Bucket>();
  // Steps start at the first sample, so the first one is whole; the last one's length is measured (ms timestamps).
  let anchor: number | undefined;
  let lastMs = 0;
  let precise = false;
  let columns: { metric: number; time: number; value: number; tag: K6CsvTag } | undefined;
  for await (const record of csvRecords(lines)) {
    if (columns === undefined) {
      const index = (name: string) => record.indexOf(name);
      columns = {
        metric: index("metric_name"),
        time: index("timestamp"),
        value: index("metric_value"),
        tag: k6CsvTagReader(record),
      };
      if (columns.metric < 0 || columns.time < 0 || columns.value < 0) {
        throw new Error("not k6 CSV output: the header lacks metric_name, timestamp or metric_value");
      }
      continue;
    }
    const metric = record[columns.metric] ?? "";
    const value = Number(record[columns.value]);
    const at = timestampMs(record[columns.time]);
    if (at === undefined || !Number.isFinite(value)) continue;
    anchor ??= at;
    if (at > lastMs) lastMs = at;
    if (!precise && at % 1000 !== 0) precise = true;
    const tagOf = columns.tag;
    const placement = place(metric, value, (name) => tagOf(record, name));
    if (placement === undefined) continue;
    const second = Math.max(0, Math.floor((at - anchor) / 1000));
    let bucket = seconds.get(second);
    if (bucket === undefined) {
      bucket = newBucket();
      seconds.set(second, bucket);
    }
    if (placement.kind === "count") {
      const add = placement.by === "sample" ? 1 : value;
      for (const key of placement.keys) bucket.counts.set(key, (bucket.counts.get(key) ?? 0) + add);
    } else if (placement.kind === "latency") {
      let histogram = bucket.latency.get(placement.key);
      if (histogram === undefined) {
        histogram = new LatencyHistogram();
        bucket.latency.set(placement.key, histogram);
      }
      histogram.add(value);
    } else {
      bucket.gauges.set(placement.key, Math.max(bucket.gauges.get(placement.key) ?? value, value));
    }
  }
  return toColumns(seconds, maxPoints, anchor ?? 0, precise ? lastMs : undefined);
}

function toColumns(
  seconds: ReadonlyMap<number, Bucket>,
  maxPoints: number,
  anchor: number,
  lastMs: number | undefined,
): TimeSeries {
  const keys = [...seconds.keys()];
  if (keys.length === 0) {
    return {
      format: TIME_SERIES_FORMAT,
      startedAt: 0,
      stepSeconds: 1,
      length: 0,
      lastStepSeconds: 1,
      counts: {},
      latency: {},
      gauges: {},
    };
  }
  // A loop, not Math.max(...keys): a spread of a long run's seconds overflows the stack.
  let span = 0;
  for (const second of keys) span = Math.max(span, second + 1);
  const stepSeconds = Math.max(1, Math.ceil(span / Math.max(1, maxPoints)));
  const length = Math.ceil(span / stepSeconds);
  const steps = Array.from({ length }, newBucket);
  for (const [second, bucket] of seconds) {
    const step = steps[Math.floor(second / stepSeconds)] as Bucket;
    for (const [key, n] of bucket.counts) step.counts.set(key, (step.counts.get(key) ?? 0) + n);
    for (const [key, histogram] of bucket.latency) {
      let merged = step.latency.get(key);
      if (merged === undefined) {
        merged = new LatencyHistogram();
        step.latency.set(key, merged);
      }
      merged.merge(histogram);
    }
    for (const [key, value] of bucket.gauges)
      step.gauges.set(key, Math.max(step.gauges.get(key) ?? value, value));
  }
  const countKeys = new Set(steps.flatMap((step) => [...step.counts.keys()]));
  const latencyKeys = new Set(steps.flatMap((step) => [...step.latency.keys()]));
  const gaugeKeys = new Set(steps.flatMap((step) => [...step.gauges.keys()]));
  const round = (value: number | undefined) => (value === undefined ? null : Math.round(value * 100) / 100);
  const latency: Record<string, LatencySeries> = {};
  for (const key of [...latencyKeys].sort()) {
    const of = (pick: (h: LatencyHistogram) => number | undefined) =>
      steps.map((step) => {
        const histogram = step.latency.get(key);
        return histogram === undefined ? null : round(pick(histogram));
      });
    latency[key] = {
      p50: of((h) => h.quantile(0.5)),
      p95: of((h) => h.quantile(0.95)),
      p99: of((h) => h.quantile(0.99)),
      max: of((h) => h.max),
    };
  }
  const lastStepStart = anchor + (length - 1) * stepSeconds * 1000;
  const lastStepSeconds =
    lastMs === undefined ? stepSeconds : Math.min(stepSeconds, Math.max(0, (lastMs - lastStepStart) / 1000));
  return {
    format: TIME_SERIES_FORMAT,
    startedAt: anchor,
    stepSeconds,
    length,
    lastStepSeconds: Math.round(lastStepSeconds * 1000) / 1000,
    counts: Object.fromEntries(
      [...countKeys].sort().map((key) => [key, steps.map((step) => step.counts.get(key) ?? 0)]),
    ),
    latency,
    gauges: Object.fromEntries(
      [...gaugeKeys].sort().map((key) => [key, steps.map((step) => step.gauges.get(key) ?? null)]),
    ),
  };
}

/** Reads a k6 CSV file, gzipped when its name ends in .gz, line by line. */
export async function readK6CsvFile(file: string, options?: { maxPoints?: number }): Promise<TimeSeries> {
  const { lines, close } = openCsvLines(file);
  try {
    return await aggregateK6Csv(lines, options);
  } finally {
    close();
  }
}
