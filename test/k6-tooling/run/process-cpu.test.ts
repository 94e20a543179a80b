import { spawn } from "node:child_process";
import { once } from "node:events";
import { symlink } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
import {
  allowedCpus,
  cgroupQuotaCpus,
  countCpuList,
  processCpuSeconds,
} from "../../../k6-tooling/run/process-cpu.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

describe("countCpuList", () => {
  it("counts single CPUs and ranges, both ends included", () => {
    expect(countCpuList("0")).toBe(1);
    expect(countCpuList("0-7")).toBe(8);
    expect(countCpuList(" 0,2-3,10-11 \n")).toBe(5);
  });

  it("counts nothing for what names no CPU: empty, reversed, or not numbers", () => {
    expect(countCpuList("")).toBe(0);
    expect(countCpuList("3-1")).toBe(0);
    expect(countCpuList("a,b-c")).toBe(0);
    expect(countCpuList("1,x,2")).toBe(2);
    // A part cut short names no CPU either.
    expect(countCpuList("1,,2")).toBe(2);
    expect(countCpuList("-3")).toBe(0);
    expect(countCpuList("0-")).toBe(0);
  });
});

describe("cgroupQuotaCpus", () => {
  it("divides the quota by the period", () => {
    expect(cgroupQuotaCpus("50000 100000")).toBe(0.5);
    expect(cgroupQuotaCpus("  200000   100000\n")).toBe(2);
  });

  it("has no quota to give for `max`, zero, negative or missing values", () => {
    for (const text of ["max 100000", "0 100000", "-1 100000", "100000 0", "100000", ""]) {
      expect(cgroupQuotaCpus(text), text).toBeUndefined();
    }
  });
});

describe.runIf(process.platform === "linux")("from /proc", () => {
  it("reads this process's CPU time as Node's own getrusage counts it", () => {
    const before = process.cpuUsage();
    const read = processCpuSeconds(process.pid);
    const after = process.cpuUsage();
    const seconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;
    // /proc counts in 10 ms ticks, rounded down.
    expect(read).toBeGreaterThanOrEqual(seconds(before) - 0.05);
    expect(read).toBeLessThanOrEqual(seconds(after) + 0.01);
  });

  it("reads the CPU time of a process whose name holds spaces and parentheses", async ({ tmpDir }) => {
    const oddName = path.join(tmpDir, "a) b (c");
    await symlink(process.execPath, oddName);
    // Busy until it has used 0.15 s of CPU (5 s at most), then says how much and waits to be killed.
    const script = [
      "const used = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };",
      "const end = Date.now() + 5000;",
      "while (used() < 0.15 && Date.now() < end) {}",
      "console.log(String(used()));",
      "setTimeout(() => {}, 5000);",
    ].join(" ");
    const child = spawn(oddName, ["-e", script], { stdio: ["ignore", "pipe", "ignore"] });
    onTestFinished(() => {
      child.kill();
    });
    const [said] = (await once(child.stdout, "data")) as [Buffer];
    const reported = Number(said.toString());
    expect(reported).toBeGreaterThanOrEqual(0.15);
    const read = processCpuSeconds(child.pid as number);
    expect(read).toBeGreaterThanOrEqual(reported - 0.05);
    expect(read).toBeLessThan(reported + 1);
  });

  it("has nothing to say of a process that is not there", () => {
    expect(processCpuSeconds(2 ** 22 + 11)).toBeUndefined();
  });

  it("counts no more CPUs than this process may run on, and at least one", () => {
    const cpus = allowedCpus(process.pid);
    expect(cpus).toBeGreaterThan(0);
    expect(cpus).toBeLessThanOrEqual(availableParallelism());
    // A process it cannot see: the CPUs this process has.
    expect(allowedCpus(2 ** 22 + 11)).toBe(availableParallelism());
  });
});
