import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/**
 * Linux reports a process's CPU time in clock ticks of USER_HZ, which is 100 on every architecture Linux runs on (it
 * is part of the kernel's ABI, whatever the kernel's own HZ).
 */
const USER_HZ = 100;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The CPU time (user + system, every thread, seconds) process `pid` has used so far, from /proc/PID/stat; undefined
 * where there is no /proc (not Linux) or the process is gone.
 */
export function processCpuSeconds(pid: number): number | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces: count the fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state (field 3) is fields[0], so utime (14) and stime (15) are fields[11] and fields[12].
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / USER_HZ : undefined;
}

/**
 * How long a process's threads ran on a CPU and waited on a run queue for one, seconds since each thread started,
 * and how many times they were put on a CPU.
 */
export interface RunQueueTimes {
  readonly runSeconds: number;
  readonly waitSeconds: number;
  readonly slices: number;
}

/** The most threads of one process read: k6 runs a few dozen, so a bound here only stops a runaway. */
const MAX_TASKS = 4096;

/**
 * The run and run-queue wait times of every thread of process `pid`, summed, from /proc/PID/task/TID/schedstat (the
 * kernel's schedstats: run ns, wait ns, timeslices); undefined where the kernel does not keep them or the process is
 * gone. A thread that ended takes its times with it, so a sum can go down between two reads.
 */
export function processRunQueue(pid: number): RunQueueTimes | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let run = 0;
  let wait = 0;
  let slices = 0;
  let read = 0;
  for (const task of tasks.slice(0, MAX_TASKS)) {
    // A thread may end between the listing and the read.
    const text = readText(`/proc/${pid}/task/${task}/schedstat`);
    if (text === undefined) continue;
    const [runNs, waitNs, taskSlices] = text.trim().split(/\s+/).map(Number);
    if (
      runNs === undefined ||
      waitNs === undefined ||
      taskSlices === undefined ||
      ![runNs, waitNs, taskSlices].every(Number.isFinite)
    )
      continue;
    run += runNs;
    wait += waitNs;
    slices += taskSlices;
    read += 1;
  }
  return read === 0 ? undefined : { runSeconds: run / 1e9, waitSeconds: wait / 1e9, slices };
}

/** How many CPUs a CPU list such as `0-3,6,8-9` names. */
export function countCpuList(list: string): number {
  let count = 0;
  for (const part of list.trim().split(",")) {
    // Number("") is 0: an empty part or a range's missing end must not pass for CPU 0.
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (range === null) continue;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to >= from) count += to - from + 1;
  }
  return count;
}

/** The CPUs a cgroup v2 quota (`cpu.max`: `QUOTA PERIOD`, or `max PERIOD`) allows; undefined without a quota. */
export function cgroupQuotaCpus(cpuMax: string): number | undefined {
  const [quota, period] = cpuMax.trim().split(/\s+/);
  const q = Number(quota);
  const p = Number(period);
  return quota === "max" || !(q > 0) || !(p > 0) ? undefined : q / p;
}

/**
 * How many CPUs process `pid` may run on: its affinity (Cpus_allowed_list, which taskset sets), capped by its cgroup's
 * quota (a container's --cpus), as Go counts them for GOMAXPROCS. Where /proc cannot say, the CPUs this process has.
 */
export function allowedCpus(pid: number): number {
  const status = readText(`/proc/${pid}/status`);
  const list = status === undefined ? undefined : /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1];
  let cpus = list === undefined ? availableParallelism() : countCpuList(list) || availableParallelism();
  const group = readText(`/proc/${pid}/cgroup`)
    ?.split("\n")
    .find((line) => line.startsWith("0::"))
    ?.slice(3);
  const quota = group === undefined ? undefined : readText(`/sys/fs/cgroup${group}/cpu.max`);
  const quotaCpus = quota === undefined ? undefined : cgroupQuotaCpus(quota);
  if (quotaCpus !== undefined) cpus = Math.min(cpus, quotaCpus);
  return cpus;
}
