// Start-up of the compiled CLI (what the packed package runs) against the TypeScript launcher (tsx) and bare node,
// in interleaved rounds of the same run: medians with their spread; the goals are checked, and the exit code says.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCli } from "../build/build-cli.ts";
import { LAUNCHERS } from "./launchers.ts";
import type { TimedProcess } from "./timed-process.ts";
import { timedNode } from "./timed-process.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
/** The goals: `--help` at most 0.3 s over bare node; the contract start-up at least halved. */
const HELP_GOAL_S = 0.3;
const CONTRACT_GOAL_RATIO = 0.5;

const scratch = await mkdtemp(path.join(tmpdir(), "bench-startup-"));
/** Each run reports into a directory of its own: a report directory holds one run. */
let runs = 0;
function reportDir(): string {
  runs += 1;
  return path.join(scratch, `run-${runs}`);
}
const variants: Record<string, () => Promise<TimedProcess>> = {
  "bare node (node -e 0)": () => timedNode(["-e", "0"]),
};
for (const [name, cli] of Object.entries(LAUNCHERS)) {
  variants[`${name}: --help`] = () => timedNode([cli, "--help"]);
  variants[`${name}: sandbox, until its JSON line`] = () =>
    timedNode([cli, "sandbox", "--port", "0", "--json"], true);
  variants[`${name}: contract, one check`] = () =>
    timedNode([cli, "contract", "--only", "token.issued", "--report-dir", reportDir()]);
  variants[`${name}: contract, fast profile`] = () =>
    timedNode([cli, "contract", "--report-dir", reportDir()]);
}

await buildCli();
const samples = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]));
const names = Object.keys(variants);
for (const run of Object.values(variants)) await run(); // warm-up: tsx's cache, the OS file cache
for (let round = 0; round < ROUNDS; round += 1) {
  // Each round starts at another variant, so a noisy moment does not always hit the same one.
  for (let i = 0; i < names.length; i += 1) {
    const name = names[(round + i) % names.length] as string;
    const { ms, code } = await (variants[name] as () => Promise<TimedProcess>)();
    if (code !== 0) throw new Error(`${name} exited ${code}`);
    samples.get(name)?.push(ms);
  }
}
await rm(scratch, { recursive: true, force: true });

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const median = (values: readonly number[]) => sorted(values)[Math.floor(values.length / 2)] ?? Number.NaN;
const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const med = (name: string) => median(samples.get(name) ?? []);
for (const [name, values] of samples) {
  const s = sorted(values);
  console.log(
    `${name.padEnd(42)} median ${seconds(median(s))}  (${seconds(s[0] ?? 0)} – ${seconds(s.at(-1) ?? 0)})`,
  );
}

const bare = med("bare node (node -e 0)");
const helpOver = med("compiled: --help") - bare;
// The contract's own start-up: one check's run, less what starting the same CLI with the sandbox takes.
const contractStart = (cli: string) =>
  med(`${cli}: contract, one check`) - med(`${cli}: sandbox, until its JSON line`);
const perRound = (cli: string) =>
  (samples.get(`${cli}: contract, one check`) ?? []).map(
    (ms, i) => ms - (samples.get(`${cli}: sandbox, until its JSON line`)?.[i] ?? 0),
  );
const ratio = contractStart("compiled") / contractStart("tsx");
const roundRatios = perRound("compiled").map((ms, i) => ms / (perRound("tsx")[i] ?? Number.NaN));
console.log("");
console.log(
  `--help over bare node: ${seconds(helpOver)} (tsx launcher: ${seconds(med("tsx: --help") - bare)}); goal ≤ ${HELP_GOAL_S} s`,
);
console.log(
  `contract start-up over the sandbox's own: compiled ${seconds(contractStart("compiled"))}, tsx ${seconds(contractStart("tsx"))}` +
    ` = ${ratio.toFixed(2)}× (rounds ${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}); goal ≤ ${CONTRACT_GOAL_RATIO}×`,
);
console.log(
  `contract fast profile, whole run: compiled ${seconds(med("compiled: contract, fast profile"))}, tsx ${seconds(med("tsx: contract, fast profile"))}` +
    ` = ${(med("compiled: contract, fast profile") / med("tsx: contract, fast profile")).toFixed(2)}×`,
);
const met = helpOver <= HELP_GOAL_S * 1000 && ratio <= CONTRACT_GOAL_RATIO;
console.log(met ? "goals met" : "a goal is missed");
process.exitCode = met ? 0 : 1;
