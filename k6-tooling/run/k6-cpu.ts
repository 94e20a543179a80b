import { request } from "undici";
import { readCappedText } from "../../transport/connection/index.ts";
import type { RunQueueTimes } from "./process-cpu.ts";
import { allowedCpus, processCpuSeconds, processRunQueue } from "./process-cpu.ts";

/** k6's ExecutionStatus while its scenarios run (lib/execution.go): VUs' init before and the summary after are not load. */
const RUNNING = 7;
/** How often k6's CPU time is read. */
const SAMPLE_MS = 500;
/** The shortest stretch the busiest share is taken over: a collection or a burst of VU start-ups lasts less. */
export const BUSIEST_STRETCH_MS = 5000;

/** k6's CPU time at one moment, and whether its test was running then (undefined: k6's REST API not asked). */
export interface CpuSample {
  readonly atMs: number;
  readonly cpuSeconds: number;
  readonly running: boolean | undefined;
  /** Its threads' run and run-queue wait times, where the kernel keeps them. */
  readonly runQueue?: RunQueueTimes;
}

/** What k6 used of the CPUs it may run on, sampled while it ran. */
export interface K6CpuRecord {
  /** CPUs k6 may run on (affinity, cgroup quota). */
  readonly cpus: number;
  readonly samples: readonly CpuSample[];
}

/** k6's CPU use over a stretch of its test, as shares of the CPUs it may run on (1: all of them, all the time). */
export interface CpuShare {
  readonly cpus: number;
  /** Over the whole stretch. */
  readonly meanShare: number;
  /** Over its busiest BUSIEST_STRETCH_MS (the whole stretch when it is shorter). */
  readonly busiestShare: number;
  readonly seconds: number;
  /**
   * Over the BUSIEST_STRETCH_MS in which its threads were ready to run the most (running or waiting for a CPU), as
   * shares of the CPUs it may run on: how much they were ready (above `busiestShare` only when other work held the
   * CPUs) and how much of that they ran; undefined where the kernel keeps no run-queue times.
   */
  readonly ready?: CpuReadiness;
}

/** k6's threads over a stretch, as shares of the CPU time its CPUs offered: ready to run, and ran. */
export interface CpuReadiness {
  /** Ran or waited on a run queue: above what k6 ran only when other work held the CPUs. */
  readonly readyShare: number;
  readonly ranShare: number;
  /** Their mean wait for a CPU each time they got one, ms. */
  readonly waitPerSliceMs: number;
}

async function isRunning(address: string, signal: AbortSignal): Promise<boolean | undefined> {
  try {
    const response = await request(`http://${address}/v1/status`, {
      signal,
      headersTimeout: 1000,
      bodyTimeout: 1000,
    });
    const body = JSON.parse(await readCappedText(response.body)) as {
      data?: { attributes?: { status?: number } };
    };
    return body.data?.attributes?.status === RUNNING;
  } catch {
    // Not listening yet (k6 opens its API early in start-up), or already gone.
    return false;
  }
}

/**
 * Samples the CPU time of the k6 process `pid` every SAMPLE_MS until stopped, with whether its test was running
 * (k6's REST API at `address`, when given). Returns undefined where /proc cannot tell (not Linux).
 */
export function monitorK6Cpu(
  pid: number | undefined,
  address: string | undefined,
): { stop(): Promise<K6CpuRecord | undefined> } {
  if (pid === undefined || processCpuSeconds(pid) === undefined) {
    return { stop: () => Promise.resolve(undefined) };
  }
  // Read again with every sample: a K6_BIN wrapper (taskset, nice) may exec k6 with other CPUs after the spawn.
  let cpus = allowedCpus(pid);
  const samples: CpuSample[] = [];
  const stopped = new AbortController();
  const take = async () => {
    const running = address === undefined ? undefined : await isRunning(address, stopped.signal);
    const cpuSeconds = processCpuSeconds(pid);
    const runQueue = processRunQueue(pid);
    if (cpuSeconds !== undefined && !stopped.signal.aborted) {
      cpus = allowedCpus(pid);
      samples.push({
        atMs: performance.now(),
        cpuSeconds,
        running,
        ...(runQueue === undefined ? {} : { runQueue }),
      });
    }
  };
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      await take();
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS).unref());
    }
  })();
  return {
    async stop() {
      stopped.abort();
      await loop;
      return { cpus, samples };
    },
  };
}

/** The samples of the test's run (all of them when k6's status was not asked). */
export function runningSamples(record: K6CpuRecord): readonly CpuSample[] {
  if (record.samples.every((s) => s.running === undefined)) return record.samples;
  return record.samples.filter((s) => s.running === true);
}

/** When k6 was first seen running its test, ms on the monitor's clock; undefined when it never was. */
export function runningSince(record: K6CpuRecord): number | undefined {
  return runningSamples(record)[0]?.atMs;
}

/**
 * k6's CPU share over the running test, or over [fromMs, toMs] of it: undefined with fewer than two samples there.
 */
export function cpuShare(record: K6CpuRecord, fromMs = -Infinity, toMs = Infinity): CpuShare | undefined {
  const samples = runningSamples(record).filter((s) => s.atMs >= fromMs && s.atMs <= toMs);
  const first = samples[0];
  const last = samples.at(-1);
  if (first === undefined || last === undefined || last.atMs <= first.atMs) return undefined;
  const share = (a: CpuSample, b: CpuSample) =>
    (b.cpuSeconds - a.cpuSeconds) / ((b.atMs - a.atMs) / 1000) / record.cpus;
  let busiest = share(first, last);
  let ready = readiness(first, last, record.cpus);
  let end = 0;
  for (let start = 0; start < samples.length; start += 1) {
    const from = samples[start] as CpuSample;
    while (end < samples.length && (samples[end] as CpuSample).atMs - from.atMs < BUSIEST_STRETCH_MS)
      end += 1;
    if (end >= samples.length) break;
    const to = samples[end] as CpuSample;
    busiest = Math.max(busiest, share(from, to));
    const stretch = readiness(from, to, record.cpus);
    if (stretch !== undefined && (ready === undefined || stretch.readyShare > ready.readyShare))
      ready = stretch;
  }
  return {
    cpus: record.cpus,
    meanShare: share(first, last),
    busiestShare: busiest,
    seconds: (last.atMs - first.atMs) / 1000,
    ...(ready === undefined ? {} : { ready }),
  };
}

/**
 * How much of `cpus` k6's threads were ready to run between two samples (ran, or waited on a run queue), how much they
 * ran, and their mean wait each time they got a CPU: undefined without run-queue times, when they did not run, or when
 * a thread that ended took its times with it.
 */
function readiness(a: CpuSample, b: CpuSample, cpus: number): CpuReadiness | undefined {
  if (a.runQueue === undefined || b.runQueue === undefined || b.atMs <= a.atMs) return undefined;
  const ran = b.runQueue.runSeconds - a.runQueue.runSeconds;
  const waited = b.runQueue.waitSeconds - a.runQueue.waitSeconds;
  const slices = b.runQueue.slices - a.runQueue.slices;
  if (ran < 0 || waited < 0 || slices <= 0 || ran + waited <= 0) return undefined;
  const capacity = ((b.atMs - a.atMs) / 1000) * cpus;
  return {
    readyShare: (ran + waited) / capacity,
    ranShare: ran / capacity,
    waitPerSliceMs: (waited * 1000) / slices,
  };
}
