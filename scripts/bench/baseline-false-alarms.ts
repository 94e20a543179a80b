// The baseline comparison's figures on this machine, from real runs against the embedded sandbox: false alarms in
// same-target pairs, and which added latencies the default settings call REGRESSED. Development only:
// `npm run bench:baseline` (about 35 minutes at the defaults below; PAIRS, RATE, DURATION, VUS, BASE_MS, SHIFTS and
// ROUNDS override them).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FigureComparison, LoadComparison, LoadRecord } from "../../reporting/compare/index.ts";
import { compareLoad, comparisonStatus, parseLoadRecord } from "../../reporting/compare/index.ts";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));
const PAIRS = Number(process.env.PAIRS ?? 20);
const RATE = process.env.RATE ?? "100";
const DURATION = process.env.DURATION ?? "60s";
/** Enough VUs that k6 keeps the rate on a busy machine: a run that drops iterations fails and is no baseline. */
const VUS = process.env.VUS ?? "10";
const BASE_MS = Number(process.env.BASE_MS ?? 20);
const SHIFTS = (process.env.SHIFTS ?? "2,4,5,6,8").split(",").map(Number);
/** Each added latency is measured this many times, each against the same-target run just before it. */
const ROUNDS = Number(process.env.ROUNDS ?? 2);
/** Same-target runs at most, so a machine on which runs keep failing still ends the benchmark. */
const MAX_RUNS = 2 * PAIRS + 5;

const work = mkdtempSync(path.join(tmpdir(), "baseline-bench-"));

interface Run {
  readonly dir: string;
  readonly passed: boolean;
  readonly record: LoadRecord | undefined;
  /** The machine's one-minute load average when the run ended. */
  readonly load: number;
}

let runs = 0;
function load(name: string, latencyMs: number): Run {
  runs += 1;
  const dir = path.join(work, name);
  const args = ["load", "sustained", "--rate", RATE, "--duration", DURATION, "--vus", VUS];
  const run = spawnSync(
    process.execPath,
    [CLI, ...args, "--sandbox-latency", String(latencyMs), "--report-dir", dir, "--quiet"],
    { encoding: "utf8", env: process.env },
  );
  let record: LoadRecord | undefined;
  try {
    const reading = parseLoadRecord(JSON.parse(readFileSync(path.join(dir, "baseline.json"), "utf8")));
    if (reading.ok) record = reading.record;
  } catch {
    record = undefined;
  }
  const result = { dir, passed: run.status === 0, record, load: loadavg()[0] ?? 0 };
  console.log(`${name}: exit ${run.status}, load average ${result.load.toFixed(1)}`);
  return result;
}

const tally = new Map<string, Map<string, number>>();
function count(key: string, status: string): void {
  const row = tally.get(key) ?? new Map<string, number>();
  row.set(status, (row.get(status) ?? 0) + 1);
  tally.set(key, row);
}

const figure = (comparison: LoadComparison, id: string): FigureComparison | undefined =>
  comparison.figures.find((f) => f.id === id);

const pairs: string[] = [];
const shifts: string[] = [];
let alarms = 0;
let previous: Run | undefined;
const loads: number[] = [];
// Same-target runs, each compared with the one before it when that one passed (only a passed run is a baseline);
// every few runs, each added latency in turn against the run just before it.
const shiftPlan = Array.from({ length: ROUNDS }, () => SHIFTS).flat();
const every = Math.max(1, Math.floor(PAIRS / Math.max(1, shiftPlan.length)));
for (let i = 0; pairs.length < PAIRS && i < MAX_RUNS; i += 1) {
  const run = load(`same-${i}`, BASE_MS);
  loads.push(run.load);
  if (previous?.passed && previous.record && run.record) {
    const comparison = compareLoad(previous.record, run.record);
    const status = comparisonStatus(comparison);
    count("overall", status);
    for (const f of comparison.figures) count(f.id, f.status);
    if (status === "REGRESSED" || status === "IMPROVED") alarms += 1;
    pairs.push(`same-${i - 1} → same-${i}: ${status}`);
  }
  previous = run;
  const shift = shiftPlan[0];
  if (shift !== undefined && i % every === every - 1 && run.passed && run.record) {
    shiftPlan.shift();
    const slower = load(`shift-${shift}-after-${i}`, BASE_MS + shift);
    loads.push(slower.load);
    if (slower.record) {
      const comparison = compareLoad(run.record, slower.record);
      const p95 = figure(comparison, "events.p95");
      const base = p95?.baseline ?? Number.NaN;
      const shown = p95?.shift?.estimate ?? Number.NaN;
      shifts.push(
        `+${shift} ms: events p95 ${p95?.status} (${base.toFixed(1)} → ${(p95?.candidate ?? Number.NaN).toFixed(1)} ms, shift ${shown.toFixed(1)} ms = ${((100 * shown) / base).toFixed(0)} %), overall ${comparisonStatus(comparison)}`,
      );
    }
  }
}

const sorted = [...loads].sort((a, b) => a - b);
console.log(
  `\n${pairs.length} same-target pairs (${RATE}/s, ${DURATION}, ${VUS} VUs, sandbox +${BASE_MS} ms)`,
);
console.log(`false alarms (REGRESSED or IMPROVED overall): ${alarms}`);
for (const [key, row] of tally) console.log(`  ${key.padEnd(22)} ${JSON.stringify(Object.fromEntries(row))}`);
console.log("added latency, each against the same-target run before it:");
for (const line of shifts) console.log(`  ${line}`);
console.log(
  `load average (1 min) over the ${runs} runs: min ${sorted[0]?.toFixed(1)}, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)} on ${cpus().length} cores`,
);
console.log(`runs kept in ${work}`);
