import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CpuSample, K6CpuRecord } from "../../../k6-tooling/run/k6-cpu.ts";
import { cpuShare, monitorK6Cpu, runningSince } from "../../../k6-tooling/run/k6-cpu.ts";
import {
  allowedCpus,
  cgroupQuotaCpus,
  countCpuList,
  processCpuSeconds,
  processRunQueue,
} from "../../../k6-tooling/run/process-cpu.ts";

/** Samples every 500 ms of a process using `perSecond` CPU-seconds a second, running from `from` to `to` s. */
function samples(perSecond: (t: number) => number, seconds: number, running?: [number, number]): CpuSample[] {
  const out: CpuSample[] = [];
  let cpu = 0;
  for (let t = 0; t <= seconds; t += 0.5) {
    if (t > 0) cpu += perSecond(t) * 0.5;
    out.push({
      atMs: t * 1000,
      cpuSeconds: cpu,
      running: running === undefined ? undefined : t >= running[0] && t <= running[1],
    });
  }
  return out;
}

describe("cpuShare", () => {
  it("gives k6's mean and busiest 5 s as shares of the CPUs it may run on", () => {
    // One CPU of two, with 6 s at both CPUs in the middle.
    const record: K6CpuRecord = { cpus: 2, samples: samples((t) => (t > 10 && t <= 16 ? 2 : 1), 30) };
    const share = cpuShare(record);
    expect(share?.cpus).toBe(2);
    expect(share?.seconds).toBe(30);
    expect(share?.meanShare).toBeCloseTo((24 + 12) / 30 / 2, 6);
    expect(share?.busiestShare).toBeCloseTo(1, 6);
  });

  it("leaves k6's start-up and summary out: only what it used while its test ran", () => {
    // Its VUs' init (0–3 s) and its summary (27–30 s) take both CPUs; the test between them half of one.
    const record: K6CpuRecord = {
      cpus: 2,
      samples: samples((t) => (t <= 3 || t > 27 ? 2 : 0.5), 30, [3, 27]),
    };
    expect(cpuShare(record)?.busiestShare).toBeCloseTo(0.25, 6);
    expect(runningSince(record)).toBe(3000);
    // A window of the test: from 13 s to its end.
    expect(cpuShare(record, 13_000)?.seconds).toBe(14);
  });

  it("takes a stretch shorter than 5 s whole, and has nothing to say with fewer than two samples", () => {
    const record: K6CpuRecord = { cpus: 1, samples: samples(() => 0.5, 3) };
    expect(cpuShare(record)?.busiestShare).toBeCloseTo(0.5, 6);
    expect(cpuShare({ cpus: 1, samples: samples(() => 1, 0) })).toBeUndefined();
    expect(cpuShare(record, 10_000)).toBeUndefined();
  });
});

/** `samples` with run-queue times: its threads ran `run(t)` and waited `wait(t)` seconds a second, 100 slices a second. */
function queued(run: (t: number) => number, wait: (t: number) => number, seconds: number): CpuSample[] {
  let ran = 0;
  let waited = 0;
  return samples(run, seconds).map((sample) => {
    const t = sample.atMs / 1000;
    if (t > 0) {
      ran += run(t) * 0.5;
      waited += wait(t) * 0.5;
    }
    return { ...sample, runQueue: { runSeconds: ran, waitSeconds: waited, slices: t * 100 } };
  });
}

describe("the time k6 waited for a CPU", () => {
  it("gives the 5 s its threads were most ready to run: ready, ran, and the wait each time they got a CPU", () => {
    // Half a CPU of two, waiting a tenth; then 6 s of running 0.3 and waiting 1.5 (other work took the CPUs).
    const record: K6CpuRecord = {
      cpus: 2,
      samples: queued(
        (t) => (t > 10 && t <= 16 ? 0.3 : 0.5),
        (t) => (t > 10 && t <= 16 ? 1.5 : 0.1),
        30,
      ),
    };
    const ready = cpuShare(record)?.ready;
    expect(ready?.readyShare).toBeCloseTo(1.8 / 2, 6);
    expect(ready?.ranShare).toBeCloseTo(0.3 / 2, 6);
    // 1.5 s of waiting a second over 100 times on a CPU a second: 15 ms each time.
    expect(ready?.waitPerSliceMs).toBeCloseTo(15, 6);
    // Over the quiet stretch only.
    expect(cpuShare(record, 20_000)?.ready?.readyShare).toBeCloseTo(0.6 / 2, 6);
  });

  it("says nothing of waiting without run-queue times, and skips a stretch whose sums went down", () => {
    expect(cpuShare({ cpus: 1, samples: samples(() => 0.5, 10) })?.ready).toBeUndefined();
    const steady = queued(
      () => 0.5,
      () => 0.1,
      10,
    );
    // A thread that had waited long ended at 6 s: the sums drop there, and no stretch across it counts.
    const ended = steady.map((sample) =>
      sample.atMs >= 6000 && sample.runQueue !== undefined
        ? {
            ...sample,
            runQueue: {
              runSeconds: sample.runQueue.runSeconds - 1,
              waitSeconds: sample.runQueue.waitSeconds - 2,
              slices: sample.runQueue.slices - 50,
            },
          }
        : sample,
    );
    expect(cpuShare({ cpus: 1, samples: ended })?.ready?.readyShare).toBeCloseTo(0.6, 6);
  });

  it.runIf(process.platform === "linux" && existsSync(`/proc/${process.pid}/task`))(
    "reads a live process's run-queue wait from the kernel: two busy processes on one CPU each wait",
    async () => {
      const busy = () =>
        spawn("taskset", [
          "-c",
          "0",
          process.execPath,
          "-e",
          "const end = Date.now() + 3000; while (Date.now() < end) {}",
        ]);
      const [one, two] = [busy(), busy()];
      try {
        await new Promise((resolve) => setTimeout(resolve, 800));
        const before = processRunQueue(one.pid ?? -1);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const after = processRunQueue(one.pid ?? -1);
        expect(before).toBeDefined();
        expect(after).toBeDefined();
        const ran = (after?.runSeconds ?? 0) - (before?.runSeconds ?? 0);
        const waited = (after?.waitSeconds ?? 0) - (before?.waitSeconds ?? 0);
        // Sharing one CPU with another busy process, it waits about half its ready time (more on a busy machine).
        expect(waited / (ran + waited)).toBeGreaterThan(0.3);
        expect(processRunQueue(2 ** 22 + 7)).toBeUndefined();
      } finally {
        one.kill();
        two.kill();
      }
    },
  );
});

describe("the CPUs a process may use", () => {
  it("counts a CPU list and reads a cgroup quota", () => {
    expect(countCpuList("0-1")).toBe(2);
    expect(countCpuList("0-3,6,8-9\n")).toBe(7);
    expect(countCpuList("5")).toBe(1);
    expect(cgroupQuotaCpus("max 100000")).toBeUndefined();
    expect(cgroupQuotaCpus("150000 100000\n")).toBe(1.5);
    expect(cgroupQuotaCpus("garbage")).toBeUndefined();
  });

  it.runIf(process.platform === "linux")("reads a live process's CPU time and CPUs from /proc", async () => {
    expect(processCpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(allowedCpus(process.pid)).toBeGreaterThanOrEqual(1);
    expect(processCpuSeconds(2 ** 22 + 7)).toBeUndefined();
  });

  it.runIf(process.platform === "linux")("samples a busy child process until stopped", async () => {
    const child = spawn(process.execPath, [
      "-e",
      "const end = Date.now() + 1500; while (Date.now() < end) {}",
    ]);
    const monitor = monitorK6Cpu(child.pid, undefined);
    await once(child, "exit");
    const record = await monitor.stop();
    expect(record?.samples.length).toBeGreaterThanOrEqual(2);
    const first = record?.samples[0]?.cpuSeconds ?? 0;
    const last = record?.samples.at(-1)?.cpuSeconds ?? 0;
    expect(last).toBeGreaterThan(first);
    // No REST API asked: every sample counts.
    expect(record?.samples.every((s) => s.running === undefined)).toBe(true);
  });

  it("has nothing to sample for a process it cannot see", async () => {
    await expect(monitorK6Cpu(undefined, undefined).stop()).resolves.toBeUndefined();
  });
});
