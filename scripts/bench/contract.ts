// Wall time of the contract command, next to the sandbox's own start-up through the same CLI in the same run.
// It times the compiled CLI users install (built first); LAUNCHER=tsx times the repository's tsx launcher instead.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { launcherName, prepareLauncher } from "./launchers.ts";
import type { TimedProcess } from "./timed-process.ts";
import { timedNode } from "./timed-process.ts";

const launcher = launcherName(process.env.LAUNCHER);
const { cli: CLI, description } = await prepareLauncher(launcher);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const FULL_ROUNDS = Number(process.env.FULL_ROUNDS ?? 2);
const EXPIRES_IN = 5;
/** Each run reports into a directory of its own: a report directory holds one run. */
const scratch = await mkdtemp(path.join(tmpdir(), "bench-contract-"));
let runs = 0;
function reportDir(): string {
  runs += 1;
  return path.join(scratch, `run-${runs}`);
}

function timed(args: string[], until?: "first-line"): Promise<TimedProcess> {
  return timedNode([CLI, ...args], until === "first-line");
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function measure(
  label: string,
  rounds: number,
  run: () => Promise<{ ms: number; code: number | null }>,
) {
  await run(); // warm-up: the OS file cache (and tsx's transform cache)
  const samples: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const { ms, code } = await run();
    if (code !== 0) throw new Error(`${label} exited ${code}`);
    samples.push(ms);
  }
  const value = median(samples);
  console.log(
    `${label.padEnd(44)} median ${(value / 1000).toFixed(2)} s  (${samples.map((s) => (s / 1000).toFixed(2)).join(", ")})`,
  );
  return value;
}

console.log(`launcher: ${launcher}, ${description}\n`);
const startup = await measure("sandbox start-up (CLI, until its JSON line)", ROUNDS, () =>
  timed(["sandbox", "--port", "0", "--json"], "first-line"),
);
const harness = await measure("contract, one check (the harness's start-up)", ROUNDS, () =>
  timed(["contract", "--only", "token.issued", "--report-dir", reportDir()]),
);
const fast = await measure("contract, fast profile (embedded sandbox)", ROUNDS, () =>
  timed(["contract", "--report-dir", reportDir()]),
);
const full = await measure(`contract, full profile, expires_in ${EXPIRES_IN} s`, FULL_ROUNDS, () =>
  timed([
    "contract",
    "--profile",
    "full",
    "--sandbox-expires-in",
    String(EXPIRES_IN),
    "--report-dir",
    reportDir(),
  ]),
);
await rm(scratch, { recursive: true, force: true });
const budget = EXPIRES_IN * 1.1 + 2;
console.log(
  `\nfast profile: ${(fast / 1000).toFixed(2)} s = ${(fast / startup).toFixed(2)}× the sandbox start-up (goal: under 3 s)`,
);
console.log(
  `full profile: ${(full / 1000).toFixed(2)} s; minus the harness's start-up ${((full - harness) / 1000).toFixed(2)} s, ` +
    `minus the sandbox's start-up ${((full - startup) / 1000).toFixed(2)} s, ` +
    `against a budget of expires_in × 1.1 + 2 s = ${budget.toFixed(1)} s`,
);
