// The baseline comparison's figures on this machine, from real runs against the embedded sandbox: false alarms in
// same-target pairs, and which added latencies the default settings call REGRESSED. Development only:
// `npm run bench:baseline` (35 minutes or more at the defaults below; PAIRS, RATE, DURATION, VUS, BASE_MS, SHIFTS and
// ROUNDS override them). `npm run bench:baseline -- --judge DIR` judges the runs an earlier one kept in DIR again,
// with the comparison as it is now.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadRecord } from "../../reporting/compare/index.ts";
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
/** The machine's load when a run ended, kept beside its reports for a later --judge. */
const LOAD_FILE = "bench-load.txt";

interface Run {
  readonly name: string;
  /** Only a run that passed is a baseline (`--save-baseline` refuses the others). */
  readonly passed: boolean;
  readonly record: LoadRecord | undefined;
  /** The machine's one-minute load average when the run ended, when known. */
  readonly load: number | undefined;
}

function readRun(dir: string, name: string): Run {
  const file = (base: string) => path.join(dir, name, base);
  let record: LoadRecord | undefined;
  let passed = false;
  try {
    const reading = parseLoadRecord(JSON.parse(readFileSync(file("baseline.json"), "utf8")));
    if (reading.ok) record = reading.record;
    passed = JSON.parse(readFileSync(file("run.json"), "utf8")).result?.outcome === "passed";
  } catch {
    record = undefined;
  }
  const load = existsSync(file(LOAD_FILE)) ? Number(readFileSync(file(LOAD_FILE), "utf8")) : undefined;
  return { name, passed, record, load };
}

function load(dir: string, name: string, latencyMs: number): Run {
  const reportDir = path.join(dir, name);
  const args = ["load", "sustained", "--rate", RATE, "--duration", DURATION, "--vus", VUS];
  spawnSync(
    process.execPath,
    [CLI, ...args, "--sandbox-latency", String(latencyMs), "--report-dir", reportDir, "--quiet"],
    { encoding: "utf8", env: process.env },
  );
  writeFileSync(path.join(reportDir, LOAD_FILE), String(loadavg()[0] ?? 0));
  const run = readRun(dir, name);
  console.log(`${name}: ${run.passed ? "passed" : "did not pass"}, load average ${run.load?.toFixed(1)}`);
  return run;
}

/** Runs same-target runs (and, between them, the shifted ones) until PAIRS pairs have a baseline that passed. */
function runAll(dir: string): Run[] {
  const runs: Run[] = [];
  const shiftPlan = Array.from({ length: ROUNDS }, () => SHIFTS).flat();
  const every = Math.max(1, Math.floor(PAIRS / Math.max(1, shiftPlan.length)));
  let pairs = 0;
  let previous: Run | undefined;
  for (let i = 0; pairs < PAIRS && i < MAX_RUNS; i += 1) {
    const run = load(dir, `same-${i}`, BASE_MS);
    runs.push(run);
    if (previous?.passed) pairs += 1;
    previous = run;
    const shift = shiftPlan[0];
    if (shift !== undefined && i % every === every - 1 && run.passed) {
      shiftPlan.shift();
      runs.push(load(dir, `shift-${shift}-after-${i}`, BASE_MS + shift));
    }
  }
  return runs;
}

/** The runs an earlier benchmark kept, in the order it ran them. */
function keptRuns(dir: string): Run[] {
  const names = readdirSync(dir);
  const same = names
    .filter((n) => /^same-\d+$/.test(n))
    .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  return same.flatMap((name) => [
    readRun(dir, name),
    ...names.filter((n) => n.endsWith(`-after-${name.slice(5)}`)).map((n) => readRun(dir, n)),
  ]);
}

function judge(runs: readonly Run[], dir: string): void {
  const tally = new Map<string, Map<string, number>>();
  const count = (key: string, status: string) => {
    const row = tally.get(key) ?? new Map<string, number>();
    row.set(status, (row.get(status) ?? 0) + 1);
    tally.set(key, row);
  };
  const same = runs.filter((r) => r.name.startsWith("same-"));
  let pairs = 0;
  let alarms = 0;
  for (const [i, run] of same.entries()) {
    const base = same[i - 1];
    if (!base?.passed || base.record === undefined || run.record === undefined) continue;
    const comparison = compareLoad(base.record, run.record);
    const status = comparisonStatus(comparison);
    pairs += 1;
    count("overall", status);
    for (const f of comparison.figures) count(f.id, f.status);
    if (status === "REGRESSED" || status === "IMPROVED") alarms += 1;
  }
  console.log(
    `\n${pairs} same-target pairs whose baseline passed (${RATE}/s, ${DURATION}, ${VUS} VUs, sandbox +${BASE_MS} ms)`,
  );
  console.log(`false alarms (REGRESSED or IMPROVED overall): ${alarms}`);
  for (const [key, row] of tally)
    console.log(`  ${key.padEnd(22)} ${JSON.stringify(Object.fromEntries(row))}`);
  console.log("added latency, each against the same-target run just before it:");
  for (const run of runs.filter((r) => r.name.startsWith("shift-"))) {
    const before = runs[runs.indexOf(run) - 1];
    if (before?.record === undefined || run.record === undefined) continue;
    const comparison = compareLoad(before.record, run.record);
    const p95 = comparison.figures.find((f) => f.id === "events.p95");
    const base = p95?.baseline ?? Number.NaN;
    const shift = p95?.shift?.estimate ?? Number.NaN;
    const added = run.name.replace(/^shift-(\d+)-.*$/, "$1");
    console.log(
      `  +${added} ms: events p95 ${p95?.status} (${base.toFixed(1)} → ${(p95?.candidate ?? Number.NaN).toFixed(1)} ms, shift ${shift.toFixed(1)} ms = ${((100 * shift) / base).toFixed(0)} %), overall ${comparisonStatus(comparison)}`,
    );
  }
  const loads = runs.flatMap((r) => (r.load === undefined ? [] : [r.load])).sort((a, b) => a - b);
  if (loads.length > 0) {
    console.log(
      `load average (1 min) at the end of the ${loads.length} runs: min ${loads[0]?.toFixed(1)}, median ${loads[Math.floor(loads.length / 2)]?.toFixed(1)}, max ${loads.at(-1)?.toFixed(1)} on ${cpus().length} cores`,
    );
  }
  console.log(`runs kept in ${dir}`);
}

const judgeIndex = process.argv.indexOf("--judge");
const kept = judgeIndex === -1 ? undefined : process.argv[judgeIndex + 1];
if (kept !== undefined) {
  judge(keptRuns(kept), kept);
} else {
  const dir = mkdtempSync(path.join(tmpdir(), "baseline-bench-"));
  judge(runAll(dir), dir);
}
