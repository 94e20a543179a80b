import { setMaxListeners } from "node:events";
import type { MetricSample } from "../../k6-tooling/index.ts";
import { readMetrics } from "../../k6-tooling/index.ts";
import {
  EVENT_DURATION,
  EVENT_REDIRECTS,
  EVENTS_ACCEPTED,
  EXPIRY,
  METRIC,
  REFRESH_REASONS,
  tokenRefreshes,
} from "../../load/index.ts";
import { formatDurationCompact } from "../../reporting/index.ts";
import type { MaybeTerminal } from "../progress-line.ts";
import { isTerminal, ProgressLine } from "../progress-line.ts";

/** The counters each summed figure adds up; with EVENT_DURATION, every metric the progress line reads. */
const SUMMED = {
  // k6 counts a 3xx as an expected response; the harness counts it as a redirect, never an accepted event.
  answered: [EVENTS_ACCEPTED],
  redirected: [EVENT_REDIRECTS],
  failed: [METRIC.eventsRejected],
  tokenRefreshes: REFRESH_REASONS.map(tokenRefreshes),
  expiryViolations: [EXPIRY.unexpected, EXPIRY.outlived],
} as const;

/** The counters the progress line reads every tick, one request each; event latency is read apart (latencyDue). */
const PROGRESS_COUNTERS: readonly string[] = Object.values(SUMMED).flat();

/**
 * How much the run must have grown since the last p95 read before the next. To answer, k6 sorts every latency sample
 * it holds under the lock it records samples with, so a read every tick would cost a long run more the longer it
 * runs; reads a tenth apart sort each sample about 11 times over the whole run.
 */
export const LATENCY_REREAD_GROWTH = 1.1;

/** Whether to read the p95 again at `events` events, the last read having been at `eventsAtLastRead`. */
export function latencyDue(events: number, eventsAtLastRead: number | undefined): boolean {
  if (events <= 0) return false;
  return eventsAtLastRead === undefined || events >= eventsAtLastRead * LATENCY_REREAD_GROWTH;
}

/** What a load run has done so far, summed over its k6 instances. */
export interface ProgressFigures {
  readonly accepted: number;
  readonly failed: number;
  /**
   * The highest p95 of event latency among the instances, in ms (undefined before the first event), as last read:
   * the progress reads it again once the run has grown by a tenth (LATENCY_REREAD_GROWTH).
   */
  readonly p95Ms: number | undefined;
  readonly tokenRefreshes: number;
  readonly expiryViolations: number;
}

const count = (metrics: ReadonlyMap<string, MetricSample>, name: string): number =>
  metrics.get(name)?.count ?? 0;

/** The worst instance's p95 of event latency, since percentiles do not add up; undefined when none has one. */
function worstP95(latencies: readonly (MetricSample | undefined)[]): number | undefined {
  let p95Ms: number | undefined;
  for (const latency of latencies) {
    const p95 = latency?.["p(95)"];
    if (p95 !== undefined && (p95Ms === undefined || p95 > p95Ms)) p95Ms = p95;
  }
  return p95Ms;
}

/** Sums the instances' counters; latency is the worst instance's p95 (worstP95). */
export function progressFigures(instances: readonly ReadonlyMap<string, MetricSample>[]): ProgressFigures {
  const p95Ms = worstP95(instances.map((metrics) => metrics.get(EVENT_DURATION)));
  const sum = (names: readonly string[]) =>
    instances.reduce((total, metrics) => total + names.reduce((n, name) => n + count(metrics, name), 0), 0);
  return {
    // The two counts are read apart, so one may already hold a redirect the other does not yet.
    accepted: Math.max(0, sum(SUMMED.answered) - sum(SUMMED.redirected)),
    failed: sum(SUMMED.failed),
    p95Ms,
    tokenRefreshes: sum(SUMMED.tokenRefreshes),
    expiryViolations: sum(SUMMED.expiryViolations),
  };
}

/** One progress line: elapsed of planned time, then the figures (left out while k6 cannot be read). */
export function progressLine(
  elapsedMs: number,
  plannedMs: number,
  figures: ProgressFigures | undefined,
): string {
  const time = `${formatDurationCompact(elapsedMs)} of about ${formatDurationCompact(plannedMs)}`;
  if (figures === undefined) return `event-harness: ${time}`;
  const rate = elapsedMs > 0 ? (figures.accepted * 1000) / elapsedMs : 0;
  return [
    `event-harness: ${time}`,
    `${figures.accepted} accepted, ${figures.failed} failed`,
    `${rate.toFixed(1)}/s`,
    `p95 ${figures.p95Ms === undefined ? "–" : `${Math.round(figures.p95Ms)} ms`}`,
    `${figures.tokenRefreshes} token refreshes`,
    `${figures.expiryViolations} expiry violations`,
  ].join(" · ");
}

export interface LiveProgressOptions {
  /** The REST API address of each k6 instance. */
  readonly addresses: readonly string[];
  readonly plannedMs: number;
  readonly stderr: MaybeTerminal;
  readonly signal: AbortSignal;
  /**
   * Milliseconds between lines, unthrottled (tests); by default a terminal's line is rewritten every 2 s, and a log
   * gets its first line after 5 s, then one every 30 s at most.
   */
  readonly everyMs?: number;
}

/**
 * Shows the run's progress on stderr from k6's REST API: one line rewritten in place on a terminal (cut to its
 * width), plain lines in a log. Returns the function that stops it (and ends the terminal's line).
 */
export function startLiveProgress(options: LiveProgressOptions): () => void {
  const tty = isTerminal(options.stderr);
  // In a log the first figures come early, then the line holds the rest back to one every 30 s.
  const progress = new ProgressLine(options.stderr, options.everyMs === undefined ? {} : { everyMs: 0 });
  const started = Date.now();
  let busy = false;
  /** Each instance's last event-latency reading, and the events the run had then. */
  let latency: ReadonlyArray<MetricSample | undefined> = [];
  let latencyReadAt: number | undefined;
  // Every counter of every instance is read at once, each request listening for the abort: past Node's default of
  // 10 listeners (two instances) Node would warn of a leak on stderr.
  const reads = new AbortController();
  setMaxListeners(options.addresses.length * PROGRESS_COUNTERS.length + 1, reads.signal);
  const abortReads = () => reads.abort();
  options.signal.addEventListener("abort", abortReads, { once: true });
  const read = (names: readonly string[]) =>
    Promise.all(options.addresses.map((a) => readMetrics(a, names, reads.signal)));
  const tick = async () => {
    // A slow read skips a tick rather than piling requests onto a k6 under load.
    if (busy || options.signal.aborted) return;
    busy = true;
    let figures: ProgressFigures | undefined;
    try {
      const counted = progressFigures(await read(PROGRESS_COUNTERS));
      const events = counted.accepted + counted.failed;
      if (latencyDue(events, latencyReadAt)) {
        latency = (await read([EVENT_DURATION])).map((metrics) => metrics.get(EVENT_DURATION));
        latencyReadAt = events;
      }
      figures = { ...counted, p95Ms: worstP95(latency) };
    } catch {
      figures = undefined;
    } finally {
      busy = false;
    }
    if (options.signal.aborted || stopped) return;
    progress.show(progressLine(Date.now() - started, options.plannedMs, figures));
  };
  let stopped = false;
  const timer = setInterval(() => void tick(), options.everyMs ?? (tty ? 2000 : 5000));
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    options.signal.removeEventListener("abort", abortReads);
    reads.abort();
    progress.end();
  };
}

/** What starts the progress line once k6 listens on its REST API addresses; it returns what stops the line. */
export function progressStarter(
  plannedMs: number,
  io: { readonly stderr: NodeJS.WritableStream; readonly signal: AbortSignal },
): (addresses: readonly string[]) => () => void {
  return (addresses) => startLiveProgress({ addresses, plannedMs, stderr: io.stderr, signal: io.signal });
}
