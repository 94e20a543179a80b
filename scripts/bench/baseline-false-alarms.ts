// The baseline comparison's figures on this machine: false alarms on same-target pairs of real short runs, and the
// smallest added sandbox latency the default settings call REGRESSED. Development only: `npm run bench:baseline`.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));
const RUNS = Number(process.env.RUNS ?? 21);
const SHIFTS = (process.env.SHIFTS ?? "2,4,6,8,10,15").split(",").map(Number);
const LOAD = ["sustained", "--rate", "30", "--duration", "6s"];
const work = mkdtempSync(path.join(tmpdir(), "baseline-bench-"));

function harness(args: readonly string[]): { code: number; stdout: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: process.env });
  return { code: run.status ?? -1, stdout: run.stdout };
}

function status(stdout: string): string {
  return /Baseline comparison against .*: (\w+)/.exec(stdout)?.[1] ?? "none";
}

const dirs: string[] = [];
for (let i = 0; i < RUNS; i += 1) {
  const dir = path.join(work, `run-${i}`);
  const { code } = harness(["load", ...LOAD, "--report-dir", dir]);
  if (code !== 0) console.log(`run ${i}: exit ${code}`);
  dirs.push(dir);
}
// Consecutive same-target runs: RUNS − 1 pairs, each judged as `compare` would.
const verdicts = new Map<string, number>();
let alarms = 0;
for (let i = 1; i < dirs.length; i += 1) {
  const { code, stdout } = harness(["compare", dirs[i - 1] as string, dirs[i] as string]);
  const s = status(stdout);
  verdicts.set(s, (verdicts.get(s) ?? 0) + 1);
  if (code === 1) {
    alarms += 1;
    console.log(stdout);
  }
}
console.log(
  `same-target pairs: ${dirs.length - 1}, REGRESSED (false alarms): ${alarms}`,
  Object.fromEntries(verdicts),
);
for (const shift of SHIFTS) {
  const { code, stdout } = harness([
    "load",
    ...LOAD,
    "--report-dir",
    path.join(work, `shift-${shift}`),
    "--baseline",
    dirs[0] as string,
    "--sandbox-latency",
    String(shift),
  ]);
  const p50 = /(\w+)\s+events latency p50 per unit: (.*)/.exec(stdout);
  console.log(`+${shift} ms: exit ${code}, ${status(stdout)}; p50: ${p50?.[1]} ${p50?.[2]}`);
}
console.log(`runs kept in ${work}`);
