/**
 * How well `event-harness load capacity` finds a capacity that is known, and how long it takes.
 *
 *   npm run bench:capacity [-- --capacities 50,200,1000 --runs 3 --launcher compiled|tsx --max-minutes 6
 *                              --extra="--rate 50 --resolution 5%"]
 *
 * For each capacity N, the CLI searches the embedded sandbox limited to N events/s (`--sandbox-throughput N`) with
 * the default objectives and search, `--runs` times; each run gives the time from the command's start to its result
 * (wall clock, the CLI's own start-up included) and the found ÷ true capacity (the highest rate held ÷ N). Goal: every
 * run within ±10 % of N, in at most `--max-minutes` (6). A run the generator limited, or that found no capacity,
 * misses the goal and says why. `--extra` adds options to every run (quoted, split on spaces), to price another search
 * shape. Timings are absolute, so the run starts with this machine's speed (/work/shared/tools/machine-speed.mjs when
 * present); only a quiet machine's figures belong in docs/performance.md. Exits 1 when a goal is missed.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { LauncherName } from "./launchers.ts";
import { launcherName, prepareLauncher } from "./launchers.ts";

const MACHINE_SPEED = "/work/shared/tools/machine-speed.mjs";
const GOAL_SHARE = 0.1;

interface RunResult {
  readonly capacity: number;
  readonly run: number;
  readonly seconds: number;
  readonly code: number | null;
  readonly held: number | null;
  readonly kind: string | null;
  readonly stop: string | null;
  readonly steps: number;
  readonly verdictLine: string;
}

function list(name: string, raw: string, max: number): number[] {
  const values = raw.split(",").map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 1 || v > max)) {
    throw new Error(`--${name} takes whole numbers from 1 to ${max}, comma-separated, got ${raw}`);
  }
  return values;
}

function positive(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!(value > 0) || value > max)
    throw new Error(`--${name} takes a number above 0, at most ${max}, got ${raw}`);
  return value;
}

/** The machine's speed line, as the project quotes absolute timings with it. */
function machineSpeed(): Promise<string> {
  if (!existsSync(MACHINE_SPEED)) return Promise.resolve(`machine speed: not measured (no ${MACHINE_SPEED})`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MACHINE_SPEED], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("close", () => resolve(out.trim() || "machine speed: not measured"));
  });
}

/** One search through the CLI, as a user runs it; its result read from the summary.json it wrote. */
async function search(
  cli: string,
  capacity: number,
  run: number,
  extra: readonly string[],
  workDir: string,
): Promise<RunResult> {
  const reportDir = path.join(workDir, `n${capacity}-run${run}`);
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        "load",
        "capacity",
        "--sandbox-throughput",
        String(capacity),
        "--quiet",
        "--report-dir",
        reportDir,
        ...extra,
      ],
      { stdio: ["ignore", "ignore", "pipe"], env: process.env },
    );
    child.stderr.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (/event-harness: step \d+: /.test(line)) console.log(`    ${line.replace("event-harness: ", "")}`);
      }
    });
    child.on("error", reject);
    child.on("close", resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  const summary = await readFile(path.join(reportDir, "summary.json"), "utf8")
    .then(
      (text) =>
        JSON.parse(text) as {
          harness: {
            verdictLine: string;
            capacity: { held: number | null; kind: string; stop: string; steps: unknown[] };
          };
        },
    )
    .catch(() => undefined);
  return {
    capacity,
    run,
    seconds,
    code,
    held: summary?.harness.capacity.held ?? null,
    kind: summary?.harness.capacity.kind ?? null,
    stop: summary?.harness.capacity.stop ?? null,
    steps: summary?.harness.capacity.steps.length ?? 0,
    verdictLine: summary?.harness.verdictLine ?? `no summary.json (exit ${code})`,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Whether a run met the goal, and if not, why. */
function judge(result: RunResult, maxSeconds: number): string | undefined {
  if (result.held === null) return `no capacity found (${result.verdictLine})`;
  const share = result.held / result.capacity;
  if (Math.abs(share - 1) > GOAL_SHARE)
    return `found ${result.held}/s, ${(share * 100).toFixed(1)} % of ${result.capacity}/s`;
  if (result.kind !== "bracketed") return `only a lower bound (${result.stop}): ${result.verdictLine}`;
  if (result.seconds > maxSeconds) return `took ${result.seconds.toFixed(0)} s, over ${maxSeconds} s`;
  return undefined;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      capacities: { type: "string", default: "50,200,1000" },
      runs: { type: "string", default: "3" },
      launcher: { type: "string" },
      "max-minutes": { type: "string", default: "6" },
      extra: { type: "string", default: "" },
    },
  });
  const capacities = list("capacities", values.capacities, 100_000);
  const runs = positive("runs", values.runs, 20);
  const maxSeconds = positive("max-minutes", values["max-minutes"], 120) * 60;
  const extra = values.extra.split(" ").filter((part) => part !== "");
  const name: LauncherName = launcherName(values.launcher);
  const { cli, description } = await prepareLauncher(name);
  console.log(await machineSpeed());
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}; launcher: ${description}; ${runs} run(s) for each of ${capacities.join(", ")} events/s` +
      `${extra.length === 0 ? "" : `; extra options: ${extra.join(" ")}`}`,
  );
  const workDir = await mkdtemp(path.join(tmpdir(), "bench-capacity-"));
  const results: RunResult[] = [];
  try {
    for (let run = 1; run <= runs; run += 1) {
      // Capacities in turn within a round, so a drift in the machine's load falls on all of them alike.
      for (const capacity of capacities) {
        console.log(`  N = ${capacity}/s, run ${run}:`);
        const result = await search(cli, capacity, run, extra, workDir);
        results.push(result);
        const missed = judge(result, maxSeconds);
        console.log(
          `  N = ${capacity}/s, run ${run}: found ${result.held ?? "none"}/s (${result.held === null ? "–" : ((result.held / capacity) * 100).toFixed(1)} %), ` +
            `${result.steps} steps, ${result.seconds.toFixed(0)} s, exit ${result.code}${missed === undefined ? "" : `: MISSED, ${missed}`}`,
        );
      }
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  console.log("");
  console.log("  N/s     found ÷ N (median, runs)          time to result (median, max)   steps (median)");
  let open = 0;
  for (const capacity of capacities) {
    const mine = results.filter((r) => r.capacity === capacity);
    const shares = mine.map((r) => (r.held === null ? Number.NaN : r.held / capacity));
    const times = mine.map((r) => r.seconds);
    const missed = mine.map((r) => judge(r, maxSeconds)).filter((m) => m !== undefined);
    open += missed.length;
    console.log(
      `  ${String(capacity).padEnd(7)} ${median(shares).toFixed(3)} (${shares.map((s) => s.toFixed(3)).join(", ")})`.padEnd(
        43,
      ) +
        `${median(times).toFixed(0)} s, ${Math.max(...times).toFixed(0)} s`.padEnd(31) +
        `${median(mine.map((r) => r.steps))}` +
        (missed.length === 0 ? "" : `  ${missed.length} of ${mine.length} missed`),
    );
  }
  const reportDir = path.resolve("reports", "bench");
  await mkdir(reportDir, { recursive: true });
  const file = path.join(reportDir, `capacity-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  await writeFile(
    file,
    `${JSON.stringify({ launcher: name, loadAverage: loadavg(), maxSeconds, extra, results }, null, 2)}\n`,
  );
  console.log(`  (figures in ${path.relative(process.cwd(), file)})`);
  console.log(
    open === 0
      ? `Every run within ±${GOAL_SHARE * 100} % of N in at most ${maxSeconds / 60} min.`
      : `Not met: ${open} of ${results.length} runs (above).`,
  );
  return open === 0 ? 0 : 1;
}

process.exitCode = await main();
