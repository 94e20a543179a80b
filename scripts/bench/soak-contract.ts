// Flake soak: the full contract profile run again and again, counting verdicts, so a false FAIL cannot hide.
//   npm run soak:contract -- --runs 50 [--burners 2] [--fault NAME] [--timeout S] [--keep DIR] [--launcher tsx]
// It runs the compiled CLI users install (built first); --launcher tsx runs the repository's tsx launcher instead.
// Without --fault each run uses the CLI's embedded sandbox; with one, each run gets its own sandbox (fault seed =
// run number, so runs are independent draws) and the CLI treats it as an external target.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { FaultName } from "../../sandbox/index.ts";
import { isFaultName, startSandbox } from "../../sandbox/index.ts";
import { launcherName, prepareLauncher } from "./launchers.ts";

const EXPIRES_IN = 5;
/** A run that takes this long is killed and counted as a hang: far above the full profile's ~10 s. */
const HANG_MS = 180_000;

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "50" },
    burners: { type: "string", default: "0" },
    fault: { type: "string" },
    timeout: { type: "string" },
    keep: { type: "string", default: "reports/soak" },
    launcher: { type: "string" },
  },
});
const runs = Number(values.runs);
const burners = Number(values.burners);
if (!Number.isInteger(runs) || runs < 1 || runs > 1000) throw new Error("--runs takes 1 to 1000");
if (!Number.isInteger(burners) || burners < 0 || burners > 16) throw new Error("--burners takes 0 to 16");
const fault = values.fault;
if (fault !== undefined && !isFaultName(fault)) throw new Error(`unknown fault ${fault}`);
const launcher = launcherName(values.launcher);
const { cli: CLI, description } = await prepareLauncher(launcher);

const VERDICTS: Record<number, string> = { 0: "PASSED", 1: "FAILED", 3: "COULD NOT DECIDE" };

interface RunResult {
  readonly run: number;
  readonly verdict: string;
  readonly ms: number;
  /** "id STATUS" for every check that did not PASS. */
  readonly notPassed: readonly string[];
}

/** Busy loops on separate processes: with two of them, both cores of the CI machine are taken. */
function startBurners(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }),
  );
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, ms: performance.now() - started });
    });
  });
}

async function oneRun(run: number, scratch: string): Promise<RunResult> {
  const dir = path.join(scratch, `run-${run}`);
  const args = ["contract", "--profile", "full", "--report-dir", dir];
  if (values.timeout !== undefined) args.push("--timeout", values.timeout);
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  if (fault === undefined) {
    args.push("--sandbox-expires-in", String(EXPIRES_IN));
  } else {
    sandbox = await startSandbox({
      port: 0,
      expiresIn: EXPIRES_IN,
      faults: [fault as FaultName],
      faultSeed: run,
    });
    const client = sandbox.clients[0];
    if (client === undefined) throw new Error("the sandbox started without a client");
    args.push("--auth-url", sandbox.authUrl, "--base-url", sandbox.baseUrl, "--client-id", client.clientId);
    env.EVENT_API_CLIENT_SECRET = client.clientSecret;
  }
  try {
    const { code, ms } = await runCli(args, env);
    const verdict = code === null ? "HANG" : (VERDICTS[code] ?? `exit ${code}`);
    const results = await readFile(path.join(dir, "results.json"), "utf8")
      .then((text) => JSON.parse(text) as { checks: Array<{ id: string; status: string }> })
      .catch(() => ({ checks: [] }));
    const notPassed = results.checks
      .filter((check) => check.status !== "PASS")
      .map((check) => `${check.id} ${check.status}`);
    if (verdict !== "PASSED") {
      // The reports of a run that did not pass are kept, to find its cause.
      await mkdir(values.keep, { recursive: true });
      await rename(dir, path.join(values.keep, `run-${run}-${verdict.toLowerCase()}`)).catch(() => {});
    }
    return { run, verdict, ms, notPassed };
  } finally {
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

const scratch = await mkdtemp(path.join(tmpdir(), "eah-soak-"));
const burning = startBurners(burners);
const stopBurners = () => {
  for (const child of burning) child.kill("SIGKILL");
};
process.on("exit", stopBurners);
process.on("SIGINT", () => process.exit(130));
const results: RunResult[] = [];
const started = Date.now();
try {
  console.log(
    `Soak: ${runs} runs of the full profile (expires_in ${EXPIRES_IN} s) against ${
      fault === undefined ? "the embedded sandbox" : `a sandbox with fault ${fault} (seed = run number)`
    }, ${burners} CPU burner${burners === 1 ? "" : "s"}`,
  );
  console.log(`Launcher: ${launcher}, ${description}`);
  for (let run = 1; run <= runs; run += 1) {
    const result = await oneRun(run, scratch);
    results.push(result);
    console.log(
      `  run ${String(run).padStart(3)}: ${result.verdict.padEnd(9)} ${(result.ms / 1000).toFixed(1).padStart(5)} s` +
        `${result.notPassed.length > 0 ? `  ${result.notPassed.join(", ")}` : ""}`,
    );
  }
} finally {
  stopBurners();
  await rm(scratch, { recursive: true, force: true });
}

const counts = new Map<string, number>();
for (const result of results) counts.set(result.verdict, (counts.get(result.verdict) ?? 0) + 1);
const checkCounts = new Map<string, number>();
for (const entry of results.flatMap((result) => result.notPassed))
  checkCounts.set(entry, (checkCounts.get(entry) ?? 0) + 1);
const durations = results.map((result) => result.ms);
console.log("");
console.log(
  `Verdicts: ${[...counts].map(([verdict, count]) => `${verdict} ${count}`).join(", ")} of ${results.length}`,
);
console.log(
  `Run time: median ${(median(durations) / 1000).toFixed(1)} s, max ${(Math.max(...durations) / 1000).toFixed(1)} s; ` +
    `soak ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
if (checkCounts.size > 0) {
  console.log("Checks that did not pass (count of runs):");
  for (const [entry, count] of [...checkCounts].sort((a, b) => b[1] - a[1]))
    console.log(`  ${entry}: ${count}`);
  console.log(`Reports of the runs that did not pass: ${values.keep}/`);
}
