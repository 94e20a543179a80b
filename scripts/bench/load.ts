/**
 * How much load our `sustained` scenario can generate, against a minimal k6 script measured in the same run.
 *
 *   npm run bench:load [-- --rounds 3 --probe 6 --start 400 --max 20000 --bisect 3]
 *
 * One sandbox (its own child process) serves every run; on a machine with two or more CPUs the sandbox is pinned to
 * CPU 0 and k6 to CPU 1 (taskset), so k6's own cost, not the competition for a core, decides the rate held. For each
 * script the benchmark searches the highest constant arrival rate that completes with no dropped iterations and under
 * 1 % failed events (doubling, then bisecting); measures the peak memory per VU (peak RSS at 310 VUs minus at 10,
 * over 300); and k6's CPU time per event at a fixed rate all hold (GNU time), the quantity behind the rate held
 * without the noise of its zero-drop edge. The minimal script posts a constant body, the first generated event, so
 * both put the same bytes on the wire (only the reference varies, so the sandbox does not answer 409), with one fixed
 * token; ours runs exactly as `event-harness load` runs it (bundle, `--config` options file, VU settings), builds
 * bodies from the SharedArray, manages tokens per VU and records its metrics. A third script, the floor, is the
 * minimal one plus what the issue requires of every VU and event (the SharedArray of generated bodies stamped with the
 * time, the endpoint tag, the nine named custom metrics with one sample per event, ours' thresholds): its rate,
 * memory and CPU show how much of ours is the harness's own. autocannon against the same endpoint gives this
 * machine's ceiling. Rounds alternate the scripts and the medians count, because other work on a shared machine
 * skews any single run. Goals (issue 10), on the medians, each printed with its spread over the rounds: ours ≥ 90 %
 * of the minimal rate; memory per VU ≤ 1.25 × and k6 CPU per event ≤ 1.10 × the minimal script's; every scenario's
 * bundle ≤ 100 KB. Exits 1 when a goal is missed. Linux only (/usr/bin/time, taskset).
 */
import { type ChildProcess, fork, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { EventTemplateFile } from "../../load/index.ts";
import { LOAD_ENV, loadOptions, planScenario, readRunConfig } from "../../load/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { bundleLoadScenarios, formatKb, MAX_BUNDLE_BYTES } from "../build/bundle-load.ts";
import { writeEventTemplates } from "../build/event-templates.ts";
import type { K6Binary } from "../build/k6-binary.ts";
import { ensureK6 } from "../build/k6-binary.ts";
import { k6InputArgs, writeK6Inputs } from "../load/index.ts";
import type { BenchClient } from "./fetch-token.ts";
import { fetchToken } from "./fetch-token.ts";

const RATE_GOAL = 0.9;
const MEMORY_GOAL = 1.25;
/** Ours' k6 CPU per event over the minimal script's (a cost: lower is better). */
const CPU_GOAL = 1.1;
const MEMORY_VUS = [10, 310] as const;
/**
 * Pre-allocated VUs while probing a rate: enough that a stall of the shared machine (k6 drops an iteration the moment
 * no VU is free) does not end a probe that k6's throughput could hold: 300 VUs absorb 150 ms at 2,000/s.
 */
const PROBE_VUS = 300;
/** The fixed rate of the CPU-per-event measure: well below what either script holds. */
const CPU_RATE = 800;
const GNU_TIME = "/usr/bin/time";
const TASKSET = "/usr/bin/taskset";

interface AutocannonResult {
  requests: { average: number; total: number };
  errors: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

type SandboxReady = BenchClient;

/** Child mode: serve the sandbox until the parent disconnects. */
async function serve(): Promise<void> {
  // A long lifetime: the minimal script's one token must outlive the whole benchmark.
  const sandbox = await startSandbox({ expiresIn: 3600 });
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("the sandbox has no client");
  process.once("disconnect", () => void sandbox.close().then(() => process.exit(0)));
  process.send?.({ authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, ...client } satisfies SandboxReady);
}

/**
 * The minimal k6 script: one fixed token and a constant body, the first generated event with a fixed date (so both
 * scripts put the same bytes on the wire and the sandbox does the same work); only the reference varies, to avoid
 * 409s.
 */
const MINIMAL_SCRIPT = `import http from "k6/http";
const rate = Number(__ENV.BENCH_RATE);
const vus = Number(__ENV.BENCH_VUS);
export const options = {
  scenarios: {
    minimal: {
      executor: "constant-arrival-rate", rate, timeUnit: "1s", duration: __ENV.BENCH_DURATION,
      preAllocatedVUs: vus, maxVUs: vus * 2, gracefulStop: "10s",
    },
  },
  discardResponseBodies: true,
};
const url = __ENV.BENCH_URL + "/events";
const params = { headers: { Authorization: "Bearer " + __ENV.BENCH_TOKEN, "Content-Type": "application/json" } };
const head = __ENV.BENCH_HEAD + __ENV.BENCH_RUN + "-";
const tail = __ENV.BENCH_TAIL;
export default function () {
  http.post(url, head + __VU + "-" + __ITER + tail, params);
}
`;

/**
 * The floor: the minimal script plus what the issue requires of every VU and event (bodies from a SharedArray of
 * generated templates stamped with the current time, event requests tagged apart from token requests, the nine named
 * custom metrics, one events_failed sample per event, and the same thresholds as ours), and nothing of the harness's
 * own: no token management, no client model.
 */
const FLOOR_SCRIPT = `import { SharedArray } from "k6/data";
import http from "k6/http";
import { Counter, Rate, Trend } from "k6/metrics";
const rate = Number(__ENV.BENCH_RATE);
const vus = Number(__ENV.BENCH_VUS);
export const options = {
  scenarios: {
    floor: {
      executor: "constant-arrival-rate", rate, timeUnit: "1s", duration: __ENV.BENCH_DURATION,
      preAllocatedVUs: vus, maxVUs: vus * 2, gracefulStop: "10s",
    },
  },
  discardResponseBodies: true,
};
const url = __ENV.BENCH_URL + "/events";
const params = {
  headers: { Authorization: "Bearer " + __ENV.BENCH_TOKEN, "Content-Type": "application/json" },
  tags: { endpoint: "events" },
};
const templates = new SharedArray("event-templates", () => JSON.parse(open(__ENV.BENCH_DATA)).templates);
const add = [
  new Counter("token_requests").add, new Trend("token_request_duration", true).add,
  new Counter("token_request_failures").add, new Counter("token_refreshes").add,
  new Counter("token_unexpected_expiries").add, new Counter("token_idle_expiries").add,
  new Counter("token_idle_outlived").add, new Counter("events_rejected").add, new Rate("events_failed").add,
];
let template;
export default function () {
  if (template === undefined) template = templates[__VU % templates.length];
  const reference = __ENV.BENCH_RUN + "-" + __VU + "-" + __ITER;
  http.post(url, template[0] + reference + template[1] + new Date().toISOString() + template[2], params);
  add[8](false);
}
`;

interface Probe {
  readonly rate: number;
  readonly held: boolean;
  readonly completed: number;
  readonly dropped: number;
  readonly failedShare: number;
}

interface ScriptUnderTest {
  readonly label: string;
  readonly file: string;
  /** Environment and extra k6 arguments for a run at `rate` events/s with `vus` pre-allocated VUs for `seconds`. */
  prepare(
    rate: number,
    vus: number,
    seconds: number,
  ): Promise<{ env: Record<string, string>; args: string[] }>;
  /** The metric holding the share of failed events. */
  readonly failedMetric: string;
}

/** k6 gets CPU 1 and the sandbox CPU 0 when the machine has two or more: then k6's own cost sets the rate held. */
const PIN = existsSync(TASKSET) && availableParallelism() >= 2;

interface K6Run {
  readonly summary: Record<string, Record<string, number>>;
  /** Peak resident memory of the k6 process, bytes. */
  readonly peakRss: number;
  /** CPU time (user + system) the k6 process used, seconds. */
  readonly cpuSeconds: number;
}

/** Runs k6 under GNU time (its CPU time and peak RSS) and returns its summary export with both. */
async function runK6(
  k6: K6Binary,
  script: ScriptUnderTest,
  run: { env: Record<string, string>; args: string[] },
  workDir: string,
): Promise<K6Run> {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const summaryFile = path.join(workDir, `summary-${stamp}.json`);
  const timeFile = path.join(workDir, `time-${stamp}.txt`);
  const child = spawn(
    GNU_TIME,
    [
      "-o",
      timeFile,
      "-f",
      "%U %S %M",
      ...(PIN ? [TASKSET, "-c", "1"] : []),
      k6.path,
      "run",
      "--quiet",
      "--no-color",
      `--summary-export=${summaryFile}`,
      ...run.args,
      script.file,
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        K6_NO_USAGE_REPORT: "true",
        ...run.env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const [code] = (await once(child, "close")) as [number | null];
  // 99 means our thresholds (e.g. latency) failed at a high rate: the summary still tells what happened.
  if (code !== 0 && code !== 99) throw new Error(`k6 exited ${code} for ${script.label}:\n${stderr}`);
  const summary = JSON.parse(await readFile(summaryFile, "utf8")) as {
    metrics: Record<string, Record<string, number>>;
  };
  const [user = Number.NaN, system = Number.NaN, maxRssKb = Number.NaN] =
    (await readFile(timeFile, "utf8")).trim().split("\n").at(-1)?.split(" ").map(Number) ?? [];
  return { summary: summary.metrics, peakRss: maxRssKb * 1024, cpuSeconds: user + system };
}

/** k6's CPU time per completed event at a rate both scripts hold: the cost behind the highest rate, with less noise. */
async function cpuPerEvent(k6: K6Binary, script: ScriptUnderTest, seconds: number, workDir: string) {
  const { summary, cpuSeconds } = await runK6(
    k6,
    script,
    await script.prepare(CPU_RATE, PROBE_VUS, seconds),
    workDir,
  );
  return cpuSeconds / (summary.iterations?.count ?? Number.NaN);
}

async function probe(
  k6: K6Binary,
  script: ScriptUnderTest,
  rate: number,
  seconds: number,
  workDir: string,
): Promise<Probe> {
  const { summary } = await runK6(k6, script, await script.prepare(rate, PROBE_VUS, seconds), workDir);
  const completed = summary.iterations?.count ?? 0;
  const dropped = summary.dropped_iterations?.count ?? 0;
  const failedShare = summary[script.failedMetric]?.value ?? 1;
  const planned = rate * seconds;
  // Held: every planned iteration started (none dropped), nearly all completed, and under 1 % failed.
  const held = dropped === 0 && completed >= planned * 0.98 && failedShare < 0.01;
  return { rate, held, completed, dropped, failedShare };
}

/** Doubles the rate until it fails, then bisects between the last rate held and the first one missed. */
async function highestRate(
  k6: K6Binary,
  script: ScriptUnderTest,
  options: { start: number; max: number; bisect: number; seconds: number },
  workDir: string,
): Promise<{ rate: number; probes: Probe[] }> {
  const probes: Probe[] = [];
  const log = (result: Probe) => {
    probes.push(result);
    console.log(
      `  ${script.label.padEnd(9)} ${String(result.rate).padStart(6)}/s  ${result.held ? "held  " : "missed"}  ` +
        `completed ${result.completed}, dropped ${result.dropped}, failed ${(result.failedShare * 100).toFixed(2)}%`,
    );
    return result;
  };
  let held = 0;
  let missed: number | undefined;
  for (let rate = options.start; rate <= options.max && missed === undefined; rate *= 2) {
    if (log(await probe(k6, script, rate, options.seconds, workDir)).held) held = rate;
    else missed = rate;
  }
  for (let step = 0; step < options.bisect && missed !== undefined && missed - held > 50; step += 1) {
    const rate = Math.round((held + missed) / 2 / 50) * 50;
    if (log(await probe(k6, script, rate, options.seconds, workDir)).held) held = rate;
    else missed = rate;
  }
  return { rate: held, probes };
}

/** Peak memory per VU: the growth of peak RSS from the fewer to the more VUs, per added VU. */
async function memoryPerVu(k6: K6Binary, script: ScriptUnderTest, workDir: string): Promise<number> {
  const [few, many] = MEMORY_VUS;
  const low = await runK6(k6, script, await script.prepare(20, few, 4), workDir);
  const high = await runK6(k6, script, await script.prepare(20, many, 4), workDir);
  return (high.peakRss - low.peakRss) / (many - few);
}

function positive(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`--${name} takes 1–${max}, got ${raw}`);
  return value;
}

function us(seconds: number): string {
  return `${Math.round(seconds * 1e6)} µs`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

interface Round {
  readonly minimal: { rate: number; probes: Probe[]; memoryPerVuBytes: number; cpuPerEventSeconds: number };
  readonly ours: { rate: number; probes: Probe[]; memoryPerVuBytes: number; cpuPerEventSeconds: number };
  readonly floor: { rate: number; probes: Probe[]; memoryPerVuBytes: number; cpuPerEventSeconds: number };
  readonly rateRatio: number;
  readonly memoryRatio: number;
  /** Ours' CPU per event over the minimal script's: the cost ratio, free of the zero-drop edge's noise. */
  readonly cpuCostRatio: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      serve: { type: "boolean" },
      rounds: { type: "string", default: "3" },
      probe: { type: "string", default: "6" },
      start: { type: "string", default: "400" },
      max: { type: "string", default: "20000" },
      bisect: { type: "string", default: "3" },
    },
  });
  if (values.serve) {
    await serve();
    return -1;
  }
  const rounds = positive("rounds", values.rounds, 9);
  const search = {
    seconds: positive("probe", values.probe, 60),
    start: positive("start", values.start, 100_000),
    max: positive("max", values.max, 100_000),
    bisect: positive("bisect", values.bisect, 10),
  };
  const k6 = await ensureK6({ env: process.env, stderr: process.stderr });
  const bundles = await bundleLoadScenarios();
  const bundle = bundles.find((candidate) => candidate.scenario === "sustained");
  const workDir = await mkdtemp(path.join(tmpdir(), "bench-load-"));
  const server: ChildProcess = fork(fileURLToPath(import.meta.url), ["--serve"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const [ready] = (await once(server, "message")) as [SandboxReady];
    if (PIN && server.pid !== undefined) {
      // Every thread of the sandbox's process (-a) onto CPU 0; k6 runs on CPU 1.
      await once(spawn(TASKSET, ["-a", "-p", "-c", "0", String(server.pid)], { stdio: "ignore" }), "close");
    }
    const token = await fetchToken(ready);
    const dataFile = path.join(workDir, "event-templates.json");
    await writeEventTemplates(dataFile, { runId: "bench", seed: 1 });
    const [first] = (JSON.parse(await readFile(dataFile, "utf8")) as EventTemplateFile).templates;
    if (first === undefined) throw new Error("no event templates were generated");
    const constantBody = { head: first[0], tail: `${first[1]}2026-01-02T03:04:05.678Z${first[2]}` };
    const minimalFile = path.join(workDir, "minimal.js");
    await writeFile(minimalFile, MINIMAL_SCRIPT);
    const floorFile = path.join(workDir, "floor.js");
    await writeFile(floorFile, FLOOR_SCRIPT);

    // Each run gets its own references: the sandbox remembers the ones it has seen and answers 409 to a repeat.
    let run = 0;
    const nextRunId = () => {
      run += 1;
      return `bench-${run}`;
    };
    /** The run configuration `event-harness load sustained` would read for this rate against the sandbox. */
    const sustainedConfig = (rate: number, vus: number, seconds: number) =>
      readRunConfig(
        {
          [LOAD_ENV.tokenUrl]: `${ready.authUrl}/oauth/token`,
          [LOAD_ENV.baseUrl]: ready.baseUrl,
          [LOAD_ENV.credentials]: JSON.stringify([
            { client_id: ready.clientId, client_secret: ready.clientSecret },
          ]),
          [LOAD_ENV.runId]: nextRunId(),
          [LOAD_ENV.dataFile]: dataFile,
          [LOAD_ENV.rate]: String(rate),
          [LOAD_ENV.vus]: String(vus),
          [LOAD_ENV.durationSeconds]: String(seconds),
          [LOAD_ENV.expiresInSeconds]: "3600",
        },
        "sustained",
      );
    const ours: ScriptUnderTest = {
      label: "sustained",
      file: bundle?.file ?? "",
      failedMetric: "events_failed",
      // Exactly what `event-harness load sustained` hands k6: the options file and the VU settings.
      async prepare(rate, vus, seconds) {
        const config = sustainedConfig(rate, vus, seconds);
        const inputs = await writeK6Inputs(
          config,
          planScenario(config),
          await mkdtemp(path.join(workDir, "ours-")),
        );
        return { env: { ...inputs.env }, args: k6InputArgs(inputs) };
      },
    };
    /** A `--config` file with the thresholds `event-harness load sustained` gives k6 at this rate, for the floor. */
    const oursThresholds = async (rate: number, vus: number, seconds: number): Promise<string> => {
      const config = sustainedConfig(rate, vus, seconds);
      const file = path.join(await mkdtemp(path.join(workDir, "floor-")), "k6-options.json");
      await writeFile(
        file,
        JSON.stringify({ thresholds: loadOptions(config, planScenario(config)).thresholds }),
      );
      return file;
    };
    const bench = (label: string, file: string): ScriptUnderTest => ({
      label,
      file,
      failedMetric: label === "minimal" ? "http_req_failed" : "events_failed",
      async prepare(rate, vus, seconds) {
        return {
          env: {
            BENCH_URL: ready.baseUrl,
            BENCH_TOKEN: token,
            BENCH_RUN: nextRunId(),
            BENCH_RATE: String(rate),
            BENCH_VUS: String(vus),
            BENCH_DURATION: `${seconds}s`,
            BENCH_DATA: dataFile,
            BENCH_HEAD: constantBody.head,
            BENCH_TAIL: constantBody.tail,
          },
          // Like ours, the floor gets its thresholds from a --config file, not from every VU's init code.
          args: label === "floor" ? ["--config", await oursThresholds(rate, vus, seconds)] : [],
        };
      },
    });
    const minimal = bench("minimal", minimalFile);
    const floor = bench("floor", floorFile);

    console.log(
      `k6 ${k6.version}; ${rounds} round(s); probes of ${search.seconds} s, ${PROBE_VUS} pre-allocated VUs; ` +
        `memory from ${MEMORY_VUS[0]} to ${MEMORY_VUS[1]} VUs; ` +
        (PIN ? "sandbox pinned to CPU 0, k6 to CPU 1" : "not pinned (taskset or a second CPU missing)"),
    );
    const results: Round[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      // Alternating which script goes first cancels a drift in the machine's load over the run.
      const first = round % 2 === 1;
      console.log(`Round ${round}: highest constant arrival rate held (no dropped iterations, < 1 % failed)`);
      const [rateA, rateB] = [
        await highestRate(k6, first ? minimal : ours, search, workDir),
        await highestRate(k6, first ? ours : minimal, search, workDir),
      ];
      const minimalRate = first ? rateA : rateB;
      const oursRate = first ? rateB : rateA;
      const floorRate = await highestRate(k6, floor, search, workDir);
      console.log(`Round ${round}: peak memory per VU`);
      const [memA, memB] = [
        await memoryPerVu(k6, first ? minimal : ours, workDir),
        await memoryPerVu(k6, first ? ours : minimal, workDir),
      ];
      const minimalMemory = first ? memA : memB;
      const oursMemory = first ? memB : memA;
      const floorMemory = await memoryPerVu(k6, floor, workDir);
      console.log(`Round ${round}: k6 CPU per event at ${CPU_RATE}/s`);
      const [cpuA, cpuB] = [
        await cpuPerEvent(k6, first ? minimal : ours, search.seconds, workDir),
        await cpuPerEvent(k6, first ? ours : minimal, search.seconds, workDir),
      ];
      const minimalCpu = first ? cpuA : cpuB;
      const oursCpu = first ? cpuB : cpuA;
      const floorCpu = await cpuPerEvent(k6, floor, search.seconds, workDir);
      const result: Round = {
        minimal: { ...minimalRate, memoryPerVuBytes: minimalMemory, cpuPerEventSeconds: minimalCpu },
        ours: { ...oursRate, memoryPerVuBytes: oursMemory, cpuPerEventSeconds: oursCpu },
        floor: {
          rate: floorRate.rate,
          probes: floorRate.probes,
          memoryPerVuBytes: floorMemory,
          cpuPerEventSeconds: floorCpu,
        },
        rateRatio: minimalRate.rate === 0 ? 0 : oursRate.rate / minimalRate.rate,
        memoryRatio: minimalMemory <= 0 ? Number.NaN : oursMemory / minimalMemory,
        cpuCostRatio: oursCpu / minimalCpu,
      };
      results.push(result);
      console.log(
        `  round ${round}: rate ${oursRate.rate}/s vs ${minimalRate.rate}/s (${result.rateRatio.toFixed(2)}), floor ${floorRate.rate}/s, ` +
          `memory per VU ${mb(oursMemory)} vs ${mb(minimalMemory)} (${result.memoryRatio.toFixed(2)}), floor ${mb(floorMemory)}, ` +
          `CPU per event ${us(oursCpu)} vs ${us(minimalCpu)} (${result.cpuCostRatio.toFixed(2)}), floor ${us(floorCpu)}`,
      );
    }

    console.log("Ceiling: autocannon, 50 connections, 8 s, fixed token…");
    const ceiling = await autocannon({
      url: `${ready.baseUrl}/events`,
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: `${constantBody.head}ac-[<id>]${constantBody.tail}`,
      idReplacement: true,
      connections: 50,
      duration: 8,
    });
    const ceilingOk = ceiling.statusCodeStats["202"]?.count ?? 0;

    const rateRatio = median(results.map((r) => r.rateRatio));
    const memoryRatio = median(results.map((r) => r.memoryRatio));
    const cpuRatio = median(results.map((r) => r.cpuCostRatio));
    const floorCpuRatio = median(
      results.map((r) => r.floor.cpuPerEventSeconds / r.minimal.cpuPerEventSeconds),
    );
    const spread = (values: number[]) =>
      `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
    const floorRateRatio = median(
      results.map((r) => (r.minimal.rate === 0 ? 0 : r.floor.rate / r.minimal.rate)),
    );
    const floorMemory = median(results.map((r) => r.floor.memoryPerVuBytes));
    const minimalMemory = median(results.map((r) => r.minimal.memoryPerVuBytes));
    const rows = [
      ["(medians)", "sustained (ours)", "minimal k6", "ratio (spread)", "goal"],
      [
        "highest rate held",
        `${median(results.map((r) => r.ours.rate))}/s`,
        `${median(results.map((r) => r.minimal.rate))}/s`,
        `${rateRatio.toFixed(2)} (${spread(results.map((r) => r.rateRatio))})`,
        `≥ ${RATE_GOAL}`,
      ],
      [
        "peak memory per VU",
        mb(median(results.map((r) => r.ours.memoryPerVuBytes))),
        mb(minimalMemory),
        `${memoryRatio.toFixed(2)} (${spread(results.map((r) => r.memoryRatio))})`,
        `≤ ${MEMORY_GOAL}`,
      ],
      ["floor rate held", `${median(results.map((r) => r.floor.rate))}/s`, "", floorRateRatio.toFixed(2), ""],
      ["floor memory per VU", mb(floorMemory), "", (floorMemory / minimalMemory).toFixed(2), ""],
      [
        `k6 CPU/event @${CPU_RATE}/s`,
        us(median(results.map((r) => r.ours.cpuPerEventSeconds))),
        us(median(results.map((r) => r.minimal.cpuPerEventSeconds))),
        `${cpuRatio.toFixed(2)} (${spread(results.map((r) => r.cpuCostRatio))})`,
        `≤ ${CPU_GOAL}`,
      ],
      [
        "floor CPU/event",
        us(median(results.map((r) => r.floor.cpuPerEventSeconds))),
        "",
        floorCpuRatio.toFixed(2),
        "",
      ],
    ];
    console.log("");
    for (const row of rows)
      console.log(`  ${row.map((cell, i) => cell.padEnd(i === 0 ? 20 : 17)).join(" ")}`);
    const largest = bundles.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    console.log(
      `  bundles: ${bundles.map((b) => `${b.scenario} ${formatKb(b.bytes)}`).join(", ")} (goal ≤ ${formatKb(MAX_BUNDLE_BYTES)} each)`,
    );
    console.log(
      `  autocannon ceiling: ${Math.round(ceiling.requests.average)} req/s (${ceilingOk} of ${ceiling.requests.total} answered 202)`,
    );

    const reportDir = path.resolve("reports", "bench");
    await mkdir(reportDir, { recursive: true });
    const reportFile = path.join(reportDir, `load-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    await writeFile(
      reportFile,
      `${JSON.stringify(
        {
          k6: k6.version,
          search,
          rounds: results,
          pinned: PIN,
          medians: {
            rateRatio,
            memoryRatio,
            floorRateRatio,
            floorMemoryRatio: floorMemory / minimalMemory,
            cpuCostRatio: cpuRatio,
            floorCpuCostRatio: floorCpuRatio,
          },
          bundles: bundles.map(({ scenario, bytes }) => ({ scenario, bytes })),
          autocannon: {
            perSecond: ceiling.requests.average,
            total: ceiling.requests.total,
            accepted: ceilingOk,
          },
        },
        null,
        2,
      )}\n`,
    );
    console.log(`  (figures in ${path.relative(process.cwd(), reportFile)})`);
    const missed: string[] = [];
    if (!(rateRatio >= RATE_GOAL)) missed.push(`rate ratio ${rateRatio.toFixed(2)} < ${RATE_GOAL}`);
    if (!(memoryRatio <= MEMORY_GOAL)) missed.push(`memory ratio ${memoryRatio.toFixed(2)} > ${MEMORY_GOAL}`);
    if (!(cpuRatio <= CPU_GOAL)) missed.push(`CPU per event ratio ${cpuRatio.toFixed(2)} > ${CPU_GOAL}`);
    if (largest.bytes > MAX_BUNDLE_BYTES)
      missed.push(`bundle ${largest.scenario} ${formatKb(largest.bytes)}`);
    if (missed.length > 0) console.log(`Goal missed: ${missed.join("; ")}`);
    return missed.length > 0 ? 1 : 0;
  } finally {
    server.disconnect();
    await rm(workDir, { recursive: true, force: true });
  }
}

const code = await main();
if (code >= 0) process.exitCode = code;
