/**
 * How much load our `sustained` scenario can generate, against a minimal k6 script measured in the same run.
 *
 *   npm run bench:load [-- --rounds 3 --probe 10 --start 400 --max 20000 --bisect 6 --cpu-reps 3 --cpu-seconds 20
 *                         --memory-seconds 20 --held guard|zero-drop --no-rate | --rate-only
 *                         --floor-without rate-sample|event-latency|metrics
 *                         --ours-without dashboard,progress,samples,body-cap --profile RATE
 *                         | --at RATE [--gc --vus N --against BUNDLE] [--scripts floor,ours]]
 *
 * One sandbox (its own child process) serves every run; on a machine with two or more CPUs the sandbox is pinned to
 * CPU 0 and k6 to CPU 1 (taskset), so k6's own cost decides. Every goal is checked on medians over the rounds, each
 * figure ours ÷ floor, the floor with tokens (the harness's own machinery: above 1, ours costs more) and, for memory,
 * ours ÷ minimal too, with
 * the spread (lowest–highest round); a ratio whose rounds lie more than ±0.05 from its median is unsteady, and an
 * unsteady figure is reported as such, never as met:
 * - k6 CPU time per event at a fixed rate all scripts hold (GNU time), ≤ 1.10: the steady measure of the cost behind
 *   the rate held. Runs last `--cpu-seconds` (20), so what every run pays once (k6's start, 300 VUs' init, ours' 2 s
 *   token warm-up) weighs little beside the events, as in a real run. Runs are interleaved (minimal, floor without
 *   tokens, floor, ours, rotated; `--cpu-reps` times a round) so a drift in the shared machine's load hits every script alike; a round's
 *   ratio is the median of its interleaved pairs. Goal: ours ÷ floor ≤ 1.05. Beside it, not judged, its two parts:
 *   one more run of each script at 10/s gives what a run costs whatever its events (k6's start, the VUs' init, ours'
 *   warm-up tokens, the end-of-test summary) and, from the difference, the marginal CPU per event.
 * - the highest constant arrival rate held (doubling, then bisecting to 50/s; a rate missed is probed once more
 *   before it counts; the scripts' searches go in lockstep, a step of each in turn), ours ÷ floor ≥ 0.95; `--no-rate` skips it
 *   (a quick check of one change's CPU and memory). Held means what `event-harness load` itself accepts: under
 *   1 % failed events and no more dropped iterations than its guard allows (1 % of those planned). `--held
 *   zero-drop` asks for none dropped: on a shared 2-core machine one stall of the scheduler drops a few iterations at
 *   any rate, so that rule measures the machine's noise as much as k6. `--rate-only` skips memory and CPU (with
 *   `--floor-without`, what one requirement costs in rate).
 * - peak memory per VU (peak RSS at 310 VUs minus at 10, over 300, at a rate that runs every VU), ours ÷ floor ≤ 1.10
 *   and ours ÷ minimal ≤ 1.25. Runs last
 *   `--memory-seconds` (20): Go's heap grows to twice what is live before it collects, and a script that produces
 *   less garbage per second reaches that peak later; in 4 s runs ours reached it and the minimal script did not,
 *   which made ours' ratio 1.50 where 20 s runs, like any real run, give 1.33 (live heap after a GC: 1.35).
 * - every scenario's bundle ≤ 100 KB.
 * The minimal script posts a constant body, the first generated event, so both put the same bytes on the wire (only
 * the reference varies, so the sandbox does not answer 409), with one fixed token; ours runs exactly as
 * `event-harness load` runs it (bundle, `--config` options file, VU settings, and what a run adds beside: the HTML
 * dashboard, the REST API its live progress reads every 2 s, the samples its baseline record is built from;
 * `--ours-without` takes parts out to price them). The floor without tokens is the minimal script plus what every VU
 * and event of this job needs (the SharedArray of generated bodies stamped with the time, the endpoint tag, the named
 * custom metrics with one sample per event, ours' thresholds), with the minimal script's one fixed token; the floor,
 * which the goals are judged against, adds what a performance engineer writes by hand for a job that must exercise
 * token refresh: each VU fetches its own token and renews it before it expires by reading expires_in. Together they
 * show how much of ours is the harness's own, and what tokens cost a hand-written script. autocannon against the same endpoint gives this machine's ceiling. Exits 1
 * when a goal is missed. `--profile RATE` instead runs each script once at RATE with k6's CSV output and prints, second
 * by second, the requests, dropped iterations, VUs and latency, and saves k6's Go CPU and allocation profiles of the
 * rate's middle (`go tool pprof -top FILE`) with the bytes allocated per iteration: where a script loses the rate, and
 * what k6 spends its CPU and memory on. `--at RATE` probes each script at one rate, with k6's CPU per event (`--gc`:
 * with Go's collections, `--vus`: with more VUs, `--against BUNDLE`: ours against another build of the sustained
 * scenario, run alike and interleaved; `--scripts`: only the scripts named, so more pairs fit in the same minutes).
 * Linux only (/usr/bin/time, taskset).
 */
import { type ChildProcess, fork, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { request } from "undici";
import {
  k6InputArgs,
  samplesOutput,
  singleRunExtras,
  startLiveProgress,
  writeK6Inputs,
} from "../../cli/load/index.ts";
import { BundleTooLargeError } from "../../core/index.ts";
import type { K6Binary } from "../../k6-tooling/binary/k6-binary.ts";
import { ensureK6 } from "../../k6-tooling/binary/k6-binary.ts";
import type { BundleResult } from "../../k6-tooling/bundle/bundle-load.ts";
import { bundleLoadScenarios, formatKb } from "../../k6-tooling/bundle/bundle-load.ts";
import { freeLoopbackPort, readMetrics } from "../../k6-tooling/run/k6-control.ts";
import { k6GoRuntime } from "../../k6-tooling/run/k6-go-runtime.ts";
import { withBodyCap } from "../../k6-tooling/run/k6-runner.ts";
import { writeEventTemplates } from "../../k6-tooling/run/write-event-templates.ts";
import type { EventTemplateFile } from "../../load/index.ts";
import {
  DROPPED_ITERATIONS_SHARE,
  LOAD_ENV,
  loadOptions,
  planScenario,
  readRunConfig,
  scenarioIterations,
} from "../../load/index.ts";
import { readK6CsvFile } from "../../reporting/run/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import type { BenchClient } from "./fetch-token.ts";
import { fetchToken } from "./fetch-token.ts";

/**
 * The goals, on medians over the rounds: the harness's own machinery (token management, client models, sliding-expiry
 * accounting, what a user's run adds) costs almost nothing beyond the floor, a hand-written script for this job.
 */
const GOALS = {
  rateOverFloor: 0.95,
  cpuOverFloor: 1.05,
  memoryOverFloor: 1.1,
  memoryOverMinimal: 1.25,
} as const;
/** A ratio whose rounds lie further than this from its median moved too much between runs to count as met. */
const STEADY = 0.05;
const MEMORY_VUS = [10, 310] as const;
/**
 * The rate of the memory runs: 800 events in 4 s, so every one of the 310 VUs runs, as in any real run (k6 rotates
 * through its VUs). At the former 20/s only 80 VUs ever ran, so the figure was mostly idle VUs, and a warm-up that
 * gives every VU its token looked like a cost the minimal script never pays.
 */
const MEMORY_RATE = 200;
/**
 * Pre-allocated VUs while probing a rate: enough that a stall of the shared machine (k6 drops an iteration the moment
 * no VU is free) does not end a probe that k6's throughput could hold: 300 VUs absorb 150 ms at 2,000/s.
 */
const PROBE_VUS = 300;
/** The fixed rate of the CPU-per-event measure: well below what either script holds. */
const CPU_RATE = 800;
/** The rate of the run that prices what a run costs whatever its events: a VU busy now and then. */
const FIXED_COST_RATE = 10;
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
 * The floor without tokens: the minimal script plus what every VU and event of this job needs (bodies from a
 * SharedArray of generated templates stamped with the current time, event requests tagged apart from token requests,
 * the named custom metrics, one events_failed sample per event, and the same thresholds as ours), with one fixed token
 * for every VU: no token handling at all.
 */
const FLOOR_SCRIPT = `import { SharedArray } from "k6/data";
import http from "k6/http";
import { Counter, Rate } from "k6/metrics";
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
  new Counter("token_requests").add, new Counter("token_expiries").add, new Counter("events_rejected").add,
  new Counter("redirects").add, new Rate("events_failed").add,
];
let template;
export default function () {
  if (template === undefined) template = templates[__VU % templates.length];
  const reference = __ENV.BENCH_RUN + "-" + __VU + "-" + __ITER;
  http.post(url, template[0] + reference + template[1] + new Date().toISOString() + template[2], params);
  add[add.length - 1](false);
}
`;

/**
 * The floor with tokens, the floor the goals are judged against: the floor without tokens plus what this job asks of
 * every VU, as a performance engineer writes it by hand: each VU fetches its own token (its first iteration) and
 * renews it before it expires, at nine tenths of the expires_in it read, and counts its token requests. No client
 * models, no sliding-expiry accounting: what the harness adds beyond this is its own machinery.
 */
const TOKEN_FLOOR_SCRIPT = `import { SharedArray } from "k6/data";
import http from "k6/http";
import { Counter, Rate } from "k6/metrics";
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
const tokenUrl = __ENV.BENCH_TOKEN_URL;
const form = {
  grant_type: "client_credentials", client_id: __ENV.BENCH_CLIENT_ID, client_secret: __ENV.BENCH_CLIENT_SECRET,
  audience: __ENV.BENCH_URL,
};
const tokenParams = { tags: { endpoint: "token" }, responseType: "text" };
const templates = new SharedArray("event-templates", () => JSON.parse(open(__ENV.BENCH_DATA)).templates);
const add = [
  new Counter("token_requests").add, new Counter("token_expiries").add, new Counter("events_rejected").add,
  new Counter("redirects").add, new Rate("events_failed").add,
];
let template;
let params;
let renewAtMs = 0;
export default function () {
  if (params === undefined || Date.now() >= renewAtMs) {
    const response = http.post(tokenUrl, form, tokenParams);
    if (add.length > 1) add[0](1);
    const body = response.status === 200 ? JSON.parse(response.body) : undefined;
    if (body === undefined || typeof body.access_token !== "string" || typeof body.expires_in !== "number") {
      params = undefined;
      add[add.length - 1](true);
      return;
    }
    renewAtMs = Date.now() + body.expires_in * 900;
    params = {
      headers: { Authorization: "Bearer " + body.access_token, "Content-Type": "application/json" },
      tags: { endpoint: "events" },
    };
  }
  if (template === undefined) template = templates[__VU % templates.length];
  const reference = __ENV.BENCH_RUN + "-" + __VU + "-" + __ITER;
  http.post(url, template[0] + reference + template[1] + new Date().toISOString() + template[2], params);
  add[add.length - 1](false);
}
`;

/**
 * What `--floor-without` takes out of the floor, to measure what one requirement costs (and so which verdict a goal
 * would cost): the per-event error-rate sample (the `events_failed < 1 %` verdict), the endpoint tag and the latency
 * threshold on its sub-metric (event latency apart from token latency), or the custom metrics but events_failed.
 */
const FLOOR_CUTS = ["rate-sample", "event-latency", "metrics"] as const;
type FloorCut = (typeof FLOOR_CUTS)[number];

/** A floor (with or without tokens) less what `--floor-without` takes out of both. */
function floorScript(floor: string, cut: FloorCut | undefined): string {
  const script =
    cut === "rate-sample"
      ? floor.replace("  add[add.length - 1](false);\n", "")
      : cut === "event-latency"
        ? floor.replace('tags: { endpoint: "events" },\n', "")
        : cut === "metrics"
          ? floor.replace(/const add = \[[^\]]*\];/, 'const add = [new Rate("events_failed").add];')
          : floor;
  if (cut !== undefined && script === floor) throw new Error(`--floor-without ${cut} changed nothing`);
  return script;
}

/** The floor's thresholds without the ones a cut takes away. */
function floorThresholds(thresholds: Readonly<Record<string, readonly string[]>>, cut: FloorCut | undefined) {
  return Object.fromEntries(
    Object.entries(thresholds).filter(
      ([name]) =>
        !(cut === "rate-sample" && name === "events_failed") &&
        !(cut === "event-latency" && name.startsWith("http_req_duration{")) &&
        !(cut === "metrics" && /^(token_|events_rejected|redirects)/.test(name)),
    ),
  );
}

/**
 * What `--ours-without` takes out of ours, to price what each part of a user's run costs k6: the HTML dashboard, the
 * live progress (k6's REST API, read every 2 s), the samples output the baseline record is built from, and the body
 * cap (without it the VUs also take their number from k6/execution, as with a k6 of the user's own).
 */
const OURS_EXTRAS = ["dashboard", "progress", "samples", "body-cap"] as const;
type OursExtra = (typeof OURS_EXTRAS)[number];

/** When a probe counts as held: the harness's own dropped-iterations guard, or none dropped at all. */
const HELD_RULES = ["guard", "zero-drop"] as const;
type HeldRule = (typeof HELD_RULES)[number];

interface Probe {
  readonly rate: number;
  readonly held: boolean;
  readonly completed: number;
  readonly dropped: number;
  readonly failedShare: number;
}

const HELD_WORDS: Record<HeldRule, string> = {
  guard: `dropped iterations ≤ ${DROPPED_ITERATIONS_SHARE * 100} % of those planned, as \`event-harness load\` allows`,
  "zero-drop": "no dropped iterations",
};

/** One k6 run's environment and extra arguments, and what runs beside k6 (ours: the live progress reading its API). */
interface K6Invocation {
  readonly env: Record<string, string>;
  readonly args: string[];
  /** Started once k6 is spawned; returns what stops it. */
  readonly beside?: () => () => void;
}

interface ScriptUnderTest {
  readonly label: string;
  readonly file: string;
  /** Environment and extra k6 arguments for a run at `rate` events/s with `vus` pre-allocated VUs for `seconds`. */
  prepare(rate: number, vus: number, seconds: number, csvFile?: string): Promise<K6Invocation>;
  /** The metric holding the share of failed events. */
  readonly failedMetric: string;
  /** The counter of iterations that sent an event: ours leaves its warm-up's out with a sub-metric. */
  readonly eventsMetric: string;
}

/** k6 gets CPU 1 and the sandbox CPU 0 when the machine has two or more: then k6's own cost sets the rate held. */
const PIN = existsSync(TASKSET) && availableParallelism() >= 2;

/** One Go collection as GODEBUG=gctrace=1 reports it. */
interface GcCycle {
  /** Wall time of the concurrent mark phase, ms: while it runs, VUs that allocate must help mark. */
  readonly markMs: number;
  /** Heap live after the collection, MB (gctrace rounds to whole MB). */
  readonly liveMb: number;
}

/** `gc 12 @4.205s 6%: 0.068+83+0.003 ms clock, … 70->73->40 MB, …`: the mark phase's wall time and the live heap. */
const GCTRACE_LINE = /^gc \d+ @[\d.]+s \d+%: [\d.]+\+([\d.]+)\+[\d.]+ ms clock, .* \d+->\d+->(\d+) MB/;

interface K6Run {
  readonly summary: Record<string, Record<string, number>>;
  /** Go's collections, when the run had GODEBUG=gctrace=1. */
  readonly gc: readonly GcCycle[];
  /** Peak resident memory of the k6 process, bytes. */
  readonly peakRss: number;
  /** CPU time (user + system) the k6 process used, seconds. */
  readonly cpuSeconds: number;
}

/** Runs k6 under GNU time (its CPU time and peak RSS) and returns its summary export with both. */
async function runK6(
  k6: K6Binary,
  script: ScriptUnderTest,
  run: K6Invocation,
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
  const gc: GcCycle[] = [];
  let partialLine = "";
  child.stderr.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-4000);
    const lines = (partialLine + text).split("\n");
    partialLine = lines.pop() ?? "";
    for (const line of lines) {
      const match = GCTRACE_LINE.exec(line);
      if (match !== null) gc.push({ markMs: Number(match[1]), liveMb: Number(match[2]) });
    }
  });
  const stopBeside = run.beside?.();
  const [code] = (await once(child, "close")) as [number | null];
  stopBeside?.();
  // 99 means our thresholds (e.g. latency) failed at a high rate: the summary still tells what happened.
  if (code !== 0 && code !== 99) throw new Error(`k6 exited ${code} for ${script.label}:\n${stderr}`);
  const summary = JSON.parse(await readFile(summaryFile, "utf8")) as {
    metrics: Record<string, Record<string, number>>;
  };
  const [user = Number.NaN, system = Number.NaN, maxRssKb = Number.NaN] =
    (await readFile(timeFile, "utf8")).trim().split("\n").at(-1)?.split(" ").map(Number) ?? [];
  return { summary: summary.metrics, gc, peakRss: maxRssKb * 1024, cpuSeconds: user + system };
}

/** k6's CPU time and completed events of one run at `rate`. */
interface CpuRun {
  readonly cpuSeconds: number;
  readonly events: number;
}

/** One run at `rate`: at CPU_RATE, the cost behind the highest rate with less noise; at FIXED_COST_RATE, a run's own. */
async function cpuRun(
  k6: K6Binary,
  script: ScriptUnderTest,
  rate: number,
  seconds: number,
  workDir: string,
): Promise<CpuRun> {
  const { summary, cpuSeconds } = await runK6(
    k6,
    script,
    await script.prepare(rate, PROBE_VUS, seconds),
    workDir,
  );
  return { cpuSeconds, events: summary[script.eventsMetric]?.count ?? Number.NaN };
}

/**
 * What a run costs whatever its events, and what each event adds: the line through the run at FIXED_COST_RATE and
 * the median run at CPU_RATE (the 200 events of the first cost it a share of a marginal event each).
 */
function splitCpu(busy: readonly CpuRun[], idle: CpuRun): { fixedSeconds: number; marginalSeconds: number } {
  const cpu = median(busy.map((run) => run.cpuSeconds));
  const events = median(busy.map((run) => run.events));
  const marginalSeconds = (cpu - idle.cpuSeconds) / (events - idle.events);
  return { fixedSeconds: idle.cpuSeconds - idle.events * marginalSeconds, marginalSeconds };
}

async function probe(
  k6: K6Binary,
  script: ScriptUnderTest,
  rate: number,
  seconds: number,
  rule: HeldRule,
  workDir: string,
  shape: { readonly vus: number; readonly env?: Readonly<Record<string, string>> } = { vus: PROBE_VUS },
): Promise<Probe & { readonly gc: readonly GcCycle[]; readonly cpuSeconds: number }> {
  const run = await script.prepare(rate, shape.vus, seconds);
  const { summary, gc, cpuSeconds } = await runK6(
    k6,
    script,
    { ...run, env: { ...run.env, ...shape.env } },
    workDir,
  );
  const completed = summary[script.eventsMetric]?.count ?? 0;
  const dropped = summary.dropped_iterations?.count ?? 0;
  const failedShare = summary[script.failedMetric]?.value ?? 1;
  const planned = rate * seconds;
  const droppedAllowed = rule === "guard" ? Math.floor(planned * DROPPED_ITERATIONS_SHARE) : 0;
  // Held: k6 started the iterations the rule asks for, nearly all completed, and under 1 % failed.
  const held = dropped <= droppedAllowed && completed >= planned * 0.98 && failedShare < 0.01;
  return { rate, held, completed, dropped, failedShare, gc, cpuSeconds };
}

interface SearchOptions {
  readonly start: number;
  readonly max: number;
  readonly bisect: number;
  readonly seconds: number;
  readonly rule: HeldRule;
}

/** Where one script's search stands: the highest rate held, the lowest missed, and its probes. */
interface Search {
  held: number;
  missed: number | undefined;
  bisected: number;
  readonly probes: Probe[];
}

/** The next rate to probe: doubling until a miss, then bisecting to 50/s; undefined once the search is over. */
function nextRate(search: Search, options: SearchOptions): number | undefined {
  if (search.missed === undefined) {
    const rate = search.held === 0 ? options.start : search.held * 2;
    return rate <= options.max ? rate : undefined;
  }
  if (search.bisected >= options.bisect || search.missed - search.held <= 50) return undefined;
  return Math.round((search.held + search.missed) / 2 / 50) * 50;
}

/**
 * Every script's highest rate, searched in lockstep (one step of each in turn), so that a change in the shared
 * machine's load falls on all of them alike: searched one after the other, minimal's own ceiling moved between
 * 4,400 and 6,500/s from run to run, and ours ÷ minimal with it from 0.62 to 1.09.
 */
async function highestRates(
  k6: K6Binary,
  scripts: readonly ScriptUnderTest[],
  options: SearchOptions,
  workDir: string,
): Promise<Array<{ rate: number; probes: Probe[] }>> {
  const searches = scripts.map((script) => {
    const search: Search = { held: 0, missed: undefined, bisected: 0, probes: [] };
    return { script, search };
  });
  const tryOnce = async ({ script, search }: (typeof searches)[number], rate: number): Promise<boolean> => {
    const result = await probe(k6, script, rate, options.seconds, options.rule, workDir);
    search.probes.push(result);
    console.log(
      `  ${script.label.padEnd(9)} ${String(result.rate).padStart(6)}/s  ${result.held ? "held  " : "missed"}  ` +
        `completed ${result.completed}, dropped ${result.dropped}, failed ${(result.failedShare * 100).toFixed(2)}%`,
    );
    return result.held;
  };
  for (let active = true; active; ) {
    active = false;
    for (const entry of searches) {
      const { search } = entry;
      const rate = nextRate(search, options);
      if (rate === undefined) continue;
      active = true;
      const bisecting = search.missed !== undefined;
      // A miss is tried once more before it counts: one stall of the shared machine ended whole searches early.
      if ((await tryOnce(entry, rate)) || (await tryOnce(entry, rate))) search.held = rate;
      else search.missed = rate;
      if (bisecting) search.bisected += 1;
    }
  }
  return searches.map(({ search }) => ({ rate: search.held, probes: search.probes }));
}

/** Peak memory per VU: the growth of peak RSS from the fewer to the more VUs, per added VU. */
async function memoryPerVu(
  k6: K6Binary,
  script: ScriptUnderTest,
  seconds: number,
  workDir: string,
): Promise<number> {
  const [few, many] = MEMORY_VUS;
  const low = await runK6(k6, script, await script.prepare(MEMORY_RATE, few, seconds), workDir);
  const high = await runK6(k6, script, await script.prepare(MEMORY_RATE, many, seconds), workDir);
  return (high.peakRss - low.peakRss) / (many - few);
}

/**
 * `--at RATE`: every script probed at one rate, `--rounds` times in turn, with nothing added (the profile's CSV output
 * costs every script a share of k6's CPU): the dropped iterations at a rate near the scripts' edge tell two variants
 * (`--ours-without`, `--floor-without`) apart in minutes, where a search takes a quarter of an hour. With `--gc`, k6
 * reports its collections (GODEBUG=gctrace=1): the heap live after each, and how long each mark phase lasted, during
 * which VUs that allocate must help mark; with `--vus` above 300 a difference of heap per VU shows in whole MB.
 * With `--against BUNDLE`, only ours and that bundle (say, `dist/load/sustained.js` copied before a change) are
 * probed, in turn, with the same options file, settings and extras: the ratio of their k6 CPU per event, paired run by
 * run, tells a change of 2–3 % apart where three scripts' medians move by ±5 % between runs.
 */
async function probesAt(
  k6: K6Binary,
  scripts: readonly ScriptUnderTest[],
  rate: number,
  options: BenchOptions,
  workDir: string,
): Promise<void> {
  const dropped = new Map<string, number[]>(scripts.map((s) => [s.label, []]));
  const cpu = new Map<string, number[]>(scripts.map((s) => [s.label, []]));
  const shape = { vus: options.vus, ...(options.gc ? { env: { GODEBUG: "gctrace=1" } } : {}) };
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const script of scripts) {
      const result = await probe(
        k6,
        script,
        rate,
        options.search.seconds,
        options.search.rule,
        workDir,
        shape,
      );
      dropped.get(script.label)?.push(result.dropped);
      cpu.get(script.label)?.push(result.cpuSeconds / result.completed);
      // The steady part of the run: the collections of its second half (the first ones grow the heap of the VUs' init).
      const steady = result.gc.slice(Math.floor(result.gc.length / 2));
      const last = steady.at(-1);
      const marks = steady.map((c) => c.markMs);
      const gcNote = !options.gc
        ? ""
        : last === undefined
          ? "; no collection reported (a k6 that ignores GODEBUG?)"
          : `; ${result.gc.length} collections, live heap after the last ${last.liveMb} MB, mark phase median ` +
            `${median(marks)} ms (max ${Math.max(...marks)})`;
      console.log(
        `  ${script.label.padEnd(9)} ${rate}/s  ${result.held ? "held  " : "missed"}  completed ${result.completed}, ` +
          `dropped ${result.dropped}, k6 CPU ${us(result.cpuSeconds / result.completed)} an event${gcNote}`,
      );
    }
  }
  for (const [label, values] of dropped)
    console.log(
      `  ${label}: dropped iterations at ${rate}/s, median ${median(values)} (${values.join(", ")}); ` +
        `k6 CPU an event, median ${us(median(cpu.get(label) ?? []))}`,
    );
  // Each ratio over the runs next to each other, as the CPU measure pairs its interleaved runs.
  const [base, ...others] = scripts.map((s) => s.label).filter((label) => label !== "minimal");
  for (const label of others)
    console.log(
      `  ${label} ÷ ${base} in k6 CPU an event: ${spread(pairRatios(cpu.get(label) ?? [], cpu.get(base ?? "") ?? []))}`,
    );
}

/** Go's allocation counters and k6's iteration count at one moment of a run. */
interface AllocationSnapshot {
  readonly totalAllocBytes: number;
  readonly gcCycles: number;
  readonly iterations: number;
}

/** Reads Go's `TotalAlloc` and `NumGC` (from the heap profile's text form) and k6's iterations so far. */
async function allocationSnapshot(address: string): Promise<AllocationSnapshot> {
  const response = await request(`http://${address}/debug/pprof/heap?debug=1`, {
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.body.text();
  const stat = (name: string) =>
    Number(new RegExp(`^# ${name} = (\\d+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  const metrics = await readMetrics(address, ["iterations"], AbortSignal.timeout(10_000));
  return {
    totalAllocBytes: stat("TotalAlloc"),
    gcCycles: stat("NumGC"),
    iterations: metrics.get("iterations")?.count ?? Number.NaN,
  };
}

/**
 * Fetches k6's Go profiles of the `seconds` from `delayMs` on: CPU, and the allocations made meanwhile (two snapshots
 * of `allocs`, so the VUs' init is not counted), with the bytes Go allocated per iteration and its collections over
 * the same window (the garbage each event leaves is what the collector must keep up with); says where they are, or
 * why not.
 */
async function captureGoProfiles(
  address: string,
  fileStem: string,
  delayMs: number,
  seconds: number,
): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const fetchProfile = async (query: string, file: string): Promise<string> => {
    const response = await request(`http://${address}/debug/pprof/${query}`, {
      signal: AbortSignal.timeout((seconds + 10) * 1000),
    });
    const body = Buffer.from(await response.body.arrayBuffer());
    if (response.statusCode !== 200) throw new Error(`k6 answered ${response.statusCode} to ${query}`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
    return path.relative(process.cwd(), file);
  };
  try {
    const before = await allocationSnapshot(address);
    const allocsBefore = await fetchProfile("allocs", `${fileStem}-allocs-base.pb.gz`);
    const cpu = await fetchProfile(`profile?seconds=${seconds}`, `${fileStem}.pb.gz`);
    const allocs = await fetchProfile("allocs", `${fileStem}-allocs.pb.gz`);
    const after = await allocationSnapshot(address);
    const iterations = after.iterations - before.iterations;
    const perIteration = (after.totalAllocBytes - before.totalAllocBytes) / iterations;
    const gcs = after.gcCycles - before.gcCycles;
    return (
      `Go allocated ${(perIteration / 1024).toFixed(2)} KB per iteration over ${iterations} iterations, ` +
      `${gcs} collections (${((gcs / iterations) * 1000).toFixed(2)} per 1,000); ` +
      `Go CPU profile: go tool pprof -top ${cpu}; ` +
      `allocations: go tool pprof -sample_index=alloc_space -top -base ${allocsBefore} ${allocs}`
    );
  } catch (error) {
    return `no Go profile (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** One run at `rate` with k6's CSV output, printed second by second: when iterations drop, and what else happens then. */
async function profile(
  k6: K6Binary,
  script: ScriptUnderTest,
  rate: number,
  seconds: number,
  workDir: string,
) {
  const csv = path.join(workDir, `profile-${script.label}-${rate}.csv`);
  const run = await script.prepare(rate, PROBE_VUS, seconds, csv);
  // k6's own Go profiles of the rate's middle, from its REST API (ours already has one, for the live progress).
  const at = run.args.indexOf("--address");
  const address = at >= 0 ? (run.args[at + 1] as string) : `127.0.0.1:${await freeLoopbackPort()}`;
  const pprofStem = path.resolve(
    "reports",
    "bench",
    `pprof-${script.label}-${rate}-${new Date().toISOString().replace(/[:.]/g, "-")}`,
  );
  let captured: Promise<string> | undefined;
  const { summary, cpuSeconds } = await runK6(
    k6,
    script,
    {
      env: run.env,
      args: [...run.args, ...(at >= 0 ? [] : ["--address", address]), "--profiling-enabled"],
      beside: () => {
        const stop = run.beside?.();
        // Ours' rate starts after its 2 s token warm-up: the profile covers seconds 3 to `seconds` of the run.
        captured = captureGoProfiles(address, pprofStem, 3000, Math.max(1, seconds - 3));
        return () => stop?.();
      },
    },
    workDir,
  );
  const pprofNote = captured === undefined ? "" : await captured;
  const series = await readK6CsvFile(csv);
  const count = (key: string, i: number) => series.counts[key]?.[i] ?? 0;
  const ms = (values: ReadonlyArray<number | null> | undefined, i: number) => {
    const value = values?.[i];
    return value === null || value === undefined ? "" : value.toFixed(1);
  };
  console.log(
    `  ${script.label} at ${rate}/s: completed ${summary[script.eventsMetric]?.count ?? 0}, dropped ${summary.dropped_iterations?.count ?? 0}, ` +
      `k6 CPU ${cpuSeconds.toFixed(2)} s (with CSV output); ${pprofNote}`,
  );
  console.log("    second  events  token  dropped  VUs   event p50/p99/max ms   token p99 ms");
  for (let i = 0; i < series.length; i += 1) {
    const latency = series.latency.events;
    console.log(
      `    ${String(i).padStart(6)}  ${String(count("requests.events", i)).padStart(6)}  ${String(count("requests.token", i)).padStart(5)}  ` +
        `${String(count("iterations.dropped", i)).padStart(7)}  ${String(series.gauges.vus?.[i] ?? "").padStart(4)}  ` +
        `${`${ms(latency?.p50, i)}/${ms(latency?.p99, i)}/${ms(latency?.max, i)}`.padStart(21)}  ${ms(series.latency.token?.p99, i).padStart(12)}`,
    );
  }
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

function ms(seconds: number): string {
  return `${Math.round(seconds * 1e3)} ms`;
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

interface ScriptRound {
  readonly rate: number | undefined;
  readonly probes: Probe[];
  readonly memoryPerVuBytes: number;
  /** k6 CPU seconds per completed event, one per interleaved repetition. */
  readonly cpuPerEventSeconds: number[];
  /** k6 CPU seconds a run costs whatever its events, and per event beyond that (splitCpu), when measured. */
  readonly fixedCpuSeconds: number;
  readonly marginalCpuSeconds: number;
}

/**
 * Ratios of one figure in one round: ours over the floor (with tokens), the floor without tokens ("bare") and the
 * minimal script; the floor over the minimal; and what tokens cost a hand-written script (floor over bare).
 */
interface RoundRatios {
  readonly oursOverFloor: number;
  readonly oursOverBare: number;
  readonly oursOverMinimal: number;
  readonly floorOverMinimal: number;
  readonly floorOverBare: number;
}

/** One round's figures; a ratio above 1 means the first script costs more (or, for the rate, holds more). */
interface Round {
  readonly minimal: ScriptRound;
  readonly bare: ScriptRound;
  readonly floor: ScriptRound;
  readonly ours: ScriptRound;
  /** Highest rate held (higher is better), when measured. */
  readonly rate: RoundRatios | undefined;
  /** Peak memory per VU (lower is better). */
  readonly memory: RoundRatios;
  /** k6 CPU per event (lower is better): each ratio the median of the round's interleaved pairs. */
  readonly cpu: RoundRatios;
}

/** Median with the spread of the rounds, e.g. `1.08 (1.05–1.12)`. */
function spread(values: readonly number[], digits = 2): string {
  const sorted = [...values].sort((x, y) => x - y);
  const low = sorted[0] ?? Number.NaN;
  const high = sorted[sorted.length - 1] ?? Number.NaN;
  return `${median(values).toFixed(digits)} (${low.toFixed(digits)}–${high.toFixed(digits)})`;
}

/** Interleaved pairs' ratios: the i-th run of `of` over the i-th of `to`. */
function pairRatios(of: readonly number[], to: readonly number[]): number[] {
  return of.map((value, i) => value / (to[i] ?? Number.NaN));
}

/** What the command line asks the benchmark to do. */
interface BenchOptions {
  readonly rounds: number;
  readonly search: SearchOptions;
  readonly cpuReps: number;
  readonly cpuSeconds: number;
  readonly memorySeconds: number;
  readonly measureRate: boolean;
  readonly measureCost: boolean;
  readonly floorCut: FloorCut | undefined;
  readonly oursWithout: ReadonlySet<OursExtra>;
  /** `--profile RATE`, unchecked: it is read only when the profile is run. */
  readonly profile: string | undefined;
  /** `--at RATE`, unchecked: it is read only when the probes are run. */
  readonly at: string | undefined;
  /** `--vus`: pre-allocated VUs of the `--at` probes. */
  readonly vus: number;
  /** `--gc`: the `--at` probes report Go's collections. */
  readonly gc: boolean;
  /** `--against BUNDLE`: the `--at` probes compare ours with this build of the sustained scenario. */
  readonly against: string | undefined;
  /** `--scripts`: the scripts `--at` and `--profile` run (all four by default). */
  readonly scripts: readonly ScriptLabel[];
}

/** The scripts under test, in the order every round runs them. */
const SCRIPT_LABELS = ["minimal", "bare", "floor", "ours"] as const;
type ScriptLabel = (typeof SCRIPT_LABELS)[number];

/** The options, checked; undefined in child mode (`--serve`). */
function readOptions(): BenchOptions | undefined {
  const { values } = parseArgs({
    options: {
      serve: { type: "boolean" },
      rounds: { type: "string", default: "3" },
      probe: { type: "string", default: "10" },
      start: { type: "string", default: "400" },
      max: { type: "string", default: "20000" },
      bisect: { type: "string", default: "6" },
      "cpu-reps": { type: "string", default: "3" },
      "cpu-seconds": { type: "string", default: "20" },
      "memory-seconds": { type: "string", default: "20" },
      held: { type: "string", default: "guard" },
      "no-rate": { type: "boolean" },
      "rate-only": { type: "boolean" },
      "floor-without": { type: "string" },
      "ours-without": { type: "string" },
      profile: { type: "string" },
      at: { type: "string" },
      vus: { type: "string" },
      gc: { type: "boolean" },
      against: { type: "string" },
      scripts: { type: "string" },
    },
  });
  if (values.serve) return undefined;
  const rounds = positive("rounds", values.rounds, 9);
  const search = {
    seconds: positive("probe", values.probe, 60),
    start: positive("start", values.start, 100_000),
    max: positive("max", values.max, 100_000),
    bisect: positive("bisect", values.bisect, 10),
    rule: values.held as HeldRule,
  };
  if (!HELD_RULES.includes(search.rule))
    throw new Error(`--held takes ${HELD_RULES.join(", ")}, got ${values.held}`);
  const cpuReps = positive("cpu-reps", values["cpu-reps"], 9);
  const cpuSeconds = positive("cpu-seconds", values["cpu-seconds"], 120);
  const memorySeconds = positive("memory-seconds", values["memory-seconds"], 120);
  const measureRate = values["no-rate"] !== true;
  const measureCost = values["rate-only"] !== true;
  if (!measureRate && !measureCost) throw new Error("--no-rate and --rate-only leave nothing to measure");
  const floorCut = values["floor-without"] as FloorCut | undefined;
  if (floorCut !== undefined && !FLOOR_CUTS.includes(floorCut))
    throw new Error(`--floor-without takes ${FLOOR_CUTS.join(", ")}, got ${floorCut}`);
  const oursWithout = new Set((values["ours-without"] ?? "").split(",").filter((v) => v !== ""));
  for (const extra of oursWithout) {
    if (!(OURS_EXTRAS as readonly string[]).includes(extra))
      throw new Error(`--ours-without takes ${OURS_EXTRAS.join(", ")} (comma-separated), got ${extra}`);
  }
  if (
    (values.gc === true || values.vus !== undefined || values.against !== undefined) &&
    values.at === undefined
  )
    throw new Error("--gc, --vus and --against shape the --at probes: add --at RATE");
  const scripts = values.scripts === undefined ? [...SCRIPT_LABELS] : values.scripts.split(",");
  for (const label of scripts) {
    if (!(SCRIPT_LABELS as readonly string[]).includes(label))
      throw new Error(`--scripts takes ${SCRIPT_LABELS.join(", ")} (comma-separated), got ${label}`);
  }
  if (values.scripts !== undefined && values.at === undefined && values.profile === undefined)
    throw new Error("--scripts chooses what --at and --profile run: add one of them");
  if (values.scripts !== undefined && values.against !== undefined)
    throw new Error("--against probes ours and that bundle only: leave out --scripts");
  if (values.against !== undefined && !existsSync(values.against))
    throw new Error(`--against: no bundle at ${values.against}`);
  return {
    rounds,
    search,
    cpuReps,
    cpuSeconds,
    memorySeconds,
    measureRate,
    measureCost,
    floorCut,
    oursWithout: oursWithout as Set<OursExtra>,
    profile: values.profile,
    at: values.at,
    vus: values.vus === undefined ? PROBE_VUS : positive("vus", values.vus, 5000),
    gc: values.gc === true,
    against: values.against === undefined ? undefined : path.resolve(values.against),
    scripts: SCRIPT_LABELS.filter((label) => scripts.includes(label)),
  };
}

/** Every scenario's bundle, checked against the 100 KB goal (bundleLoadScenarios throws above it). */
async function bundleEveryScenario(): Promise<{ bundles: BundleResult[]; bundleError: string | undefined }> {
  try {
    return { bundles: await bundleLoadScenarios(), bundleError: undefined };
  } catch (error) {
    if (!(error instanceof BundleTooLargeError)) throw error;
    return { bundles: [], bundleError: error.message };
  }
}

/** The sandbox in a child process of its own (this script in `--serve` mode), pinned to CPU 0 when k6 gets CPU 1. */
async function startServer(): Promise<{ server: ChildProcess; ready: () => Promise<SandboxReady> }> {
  const server: ChildProcess = fork(fileURLToPath(import.meta.url), ["--serve"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = async () => {
    const [ready] = (await once(server, "message")) as [SandboxReady];
    if (PIN && server.pid !== undefined) {
      // Every thread of the sandbox's process (-a) onto CPU 0; k6 runs on CPU 1.
      await once(spawn(TASKSET, ["-a", "-p", "-c", "0", String(server.pid)], { stdio: "ignore" }), "close");
    }
    return ready;
  };
  return { server, ready };
}

/** The body both the minimal script and autocannon post: the first generated event, with a fixed date. */
interface ConstantBody {
  readonly head: string;
  readonly tail: string;
}

/** The four scripts under test against the sandbox, and what they share: the generated bodies and one token. */
interface Scripts {
  readonly minimal: ScriptUnderTest;
  /** The floor without tokens: one fixed token for every VU. */
  readonly bare: ScriptUnderTest;
  /** The floor with tokens, which the goals are judged against. */
  readonly floor: ScriptUnderTest;
  readonly ours: ScriptUnderTest;
  readonly constantBody: ConstantBody;
}

async function writeScripts(
  k6: K6Binary,
  ready: SandboxReady,
  token: string,
  bundle: BundleResult | undefined,
  floorCut: FloorCut | undefined,
  without: ReadonlySet<OursExtra>,
  workDir: string,
): Promise<Scripts> {
  const dataFile = path.join(workDir, "event-templates.json");
  await writeEventTemplates(dataFile, { runId: "bench", seed: 1 });
  const [first] = (JSON.parse(await readFile(dataFile, "utf8")) as EventTemplateFile).templates;
  if (first === undefined) throw new Error("no event templates were generated");
  const constantBody = { head: first[0], tail: `${first[1]}2026-01-02T03:04:05.678Z${first[2]}` };
  const minimalFile = path.join(workDir, "minimal.js");
  await writeFile(minimalFile, MINIMAL_SCRIPT);
  const bareFile = path.join(workDir, "floor-without-tokens.js");
  await writeFile(bareFile, floorScript(FLOOR_SCRIPT, floorCut));
  const floorFile = path.join(workDir, "floor.js");
  await writeFile(floorFile, floorScript(TOKEN_FLOOR_SCRIPT, floorCut));

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
    label: "ours",
    file: bundle?.file ?? "",
    failedMetric: "events_failed",
    eventsMetric: scenarioIterations("sustained"),
    // Exactly what `event-harness load sustained` hands k6 (the options file, the VU settings, the body cap, the dashboard, the
    // REST API its live progress reads, the samples output), less what --ours-without takes out.
    async prepare(rate, vus, seconds, csvFile) {
      const config = sustainedConfig(rate, vus, seconds);
      const plan = planScenario(config);
      const dir = await mkdtemp(path.join(workDir, "ours-"));
      const inputs = await writeK6Inputs(config, plan, dir);
      const outs = csvFile === undefined ? [] : [`csv=fileName=${csvFile},timeFormat=unix_milli`];
      const samples = samplesOutput(dir, outs, k6);
      const address = without.has("progress") ? undefined : `127.0.0.1:${await freeLoopbackPort()}`;
      const extras = singleRunExtras({
        reportDir: dir,
        expectedSeconds: plan.expectedSeconds,
        address,
        samples: without.has("samples") ? { ...samples, args: [] } : samples,
        outs,
      });
      return {
        env: withBodyCap(without.has("body-cap") ? { harnessExtension: false } : k6, {
          // Go's settings as `event-harness load` gives them (GOGC=400 npm run bench:load prices a user's choice);
          // the floor and the minimal script keep k6's stock settings, as a script run by hand does.
          ...k6GoRuntime(process.env),
          ...inputs.env,
          ...(without.has("dashboard") ? {} : extras.env),
        }),
        args: [...k6InputArgs(inputs), ...extras.args],
        ...(without.has("progress")
          ? {}
          : {
              // A terminal's cadence (every 2 s), the more frequent of the two; the lines themselves are discarded.
              // And k6's status every 500 ms, which the run's CPU sampler asks to know when the test runs.
              beside: () => {
                const stopProgress = startLiveProgress({
                  addresses: [address ?? ""],
                  plannedMs: plan.expectedSeconds * 1000,
                  stderr: Object.assign(new PassThrough().resume(), { isTTY: true }),
                  signal: new AbortController().signal,
                  everyMs: 2000,
                });
                const status = setInterval(() => {
                  request(`http://${address}/v1/status`, { signal: AbortSignal.timeout(1000) })
                    .then((response) => response.body.dump())
                    .catch(() => undefined);
                }, 500);
                return () => {
                  clearInterval(status);
                  stopProgress();
                };
              },
            }),
      };
    },
  };
  /** A `--config` file with the thresholds `event-harness load sustained` gives k6 at this rate, for the floor. */
  const oursThresholds = async (rate: number, vus: number, seconds: number): Promise<string> => {
    const config = sustainedConfig(rate, vus, seconds);
    const file = path.join(await mkdtemp(path.join(workDir, "floor-")), "k6-options.json");
    await writeFile(
      file,
      JSON.stringify({
        thresholds: floorThresholds(loadOptions(config, planScenario(config)).thresholds, floorCut),
      }),
    );
    return file;
  };
  const bench = (label: string, file: string): ScriptUnderTest => ({
    label,
    file,
    failedMetric:
      label === "minimal" || (label !== "ours" && floorCut === "rate-sample")
        ? "http_req_failed"
        : "events_failed",
    eventsMetric: "iterations",
    async prepare(rate, vus, seconds, csvFile) {
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
          // The floor with tokens fetches its own: the sandbox's throwaway client.
          BENCH_TOKEN_URL: `${ready.authUrl}/oauth/token`,
          BENCH_CLIENT_ID: ready.clientId,
          BENCH_CLIENT_SECRET: ready.clientSecret,
        },
        // Like ours, the floor gets its thresholds from a --config file, not from every VU's init code.
        args: [
          ...(label === "minimal" ? [] : ["--config", await oursThresholds(rate, vus, seconds)]),
          ...(csvFile === undefined ? [] : ["--out", `csv=fileName=${csvFile},timeFormat=unix_milli`]),
        ],
      };
    },
  });
  return {
    minimal: bench("minimal", minimalFile),
    bare: bench("bare", bareFile),
    floor: bench("floor", floorFile),
    ours,
    constantBody,
  };
}

/** One round: the scripts in a rotated order, each searched for its highest rate, then its memory and CPU cost. */
async function measureRound(
  k6: K6Binary,
  round: number,
  scripts: readonly ScriptUnderTest[],
  options: BenchOptions,
  workDir: string,
): Promise<Round> {
  const { search, measureRate, measureCost } = options;
  // Rotating which script goes first cancels a drift in the machine's load over the run.
  const order = scripts.map((_, i) => scripts[(i + round - 1) % scripts.length] as ScriptUnderTest);
  const byLabel = <T>(values: readonly T[], label: string): T =>
    values[order.findIndex((s) => s.label === label)] as T;
  let rate: Array<{ rate: number; probes: Probe[] } | undefined> = [];
  if (measureRate) {
    console.log(
      `Round ${round}: highest constant arrival rate held (${HELD_WORDS[search.rule]}, < 1 % failed; ` +
        "the scripts searched in lockstep)",
    );
    rate = await highestRates(k6, order, search, workDir);
  }
  const memory: number[] = order.map(() => Number.NaN);
  const busy: CpuRun[][] = order.map(() => []);
  const split = order.map(() => ({ fixedSeconds: Number.NaN, marginalSeconds: Number.NaN }));
  if (measureCost) {
    console.log(`Round ${round}: peak memory per VU`);
    for (const [i, script] of order.entries())
      memory[i] = await memoryPerVu(k6, script, options.memorySeconds, workDir);
    console.log(
      `Round ${round}: k6 CPU per event at ${CPU_RATE}/s, ${options.cpuReps} interleaved repetition(s)`,
    );
    for (let rep = 0; rep < options.cpuReps; rep += 1) {
      for (const [i, script] of order.entries())
        busy[i]?.push(await cpuRun(k6, script, CPU_RATE, options.cpuSeconds, workDir));
    }
    for (const [i, script] of order.entries()) {
      const idle = await cpuRun(k6, script, FIXED_COST_RATE, options.cpuSeconds, workDir);
      split[i] = splitCpu(busy[i] ?? [], idle);
    }
  }
  const figures = (label: string): ScriptRound => ({
    rate: byLabel(rate, label)?.rate,
    probes: byLabel(rate, label)?.probes ?? [],
    memoryPerVuBytes: byLabel(memory, label),
    cpuPerEventSeconds: byLabel(busy, label).map((run) => run.cpuSeconds / run.events),
    fixedCpuSeconds: byLabel(split, label).fixedSeconds,
    marginalCpuSeconds: byLabel(split, label).marginalSeconds,
  });
  const m = figures("minimal");
  const b = figures("bare");
  const f = figures("floor");
  const o = figures("ours");
  const ratio = (of: number, to: number): number => (to === 0 ? Number.NaN : of / to);
  const ratios = (value: (r: ScriptRound) => number): RoundRatios => ({
    oursOverFloor: ratio(value(o), value(f)),
    oursOverBare: ratio(value(o), value(b)),
    oursOverMinimal: ratio(value(o), value(m)),
    floorOverMinimal: ratio(value(f), value(m)),
    floorOverBare: ratio(value(f), value(b)),
  });
  const pairs = (of: ScriptRound, to: ScriptRound) =>
    median(pairRatios(of.cpuPerEventSeconds, to.cpuPerEventSeconds));
  const result: Round = {
    minimal: m,
    bare: b,
    floor: f,
    ours: o,
    rate: [o, b, f, m].some((r) => r.rate === undefined) ? undefined : ratios((r) => r.rate as number),
    memory: ratios((r) => r.memoryPerVuBytes),
    cpu: {
      oursOverFloor: pairs(o, f),
      oursOverBare: pairs(o, b),
      oursOverMinimal: pairs(o, m),
      floorOverMinimal: pairs(f, m),
      floorOverBare: pairs(f, b),
    },
  };
  const both = (r: RoundRatios): string =>
    `ours ÷ floor ${r.oursOverFloor.toFixed(2)}, ÷ floor without tokens ${r.oursOverBare.toFixed(2)}, ÷ minimal ${r.oursOverMinimal.toFixed(2)}`;
  const four = (show: (r: ScriptRound) => string) =>
    `${show(o)}, floor ${show(f)}, without tokens ${show(b)}, minimal ${show(m)}`;
  console.log(
    `  round ${round}: ` +
      (result.rate === undefined ? "" : `rate ${four((r) => `${r.rate}/s`)} (${both(result.rate)}); `) +
      (measureCost
        ? `memory per VU ${four((r) => kb(r.memoryPerVuBytes))} (${both(result.memory)}); ` +
          `CPU per event ${four((r) => us(median(r.cpuPerEventSeconds)))} (${both(result.cpu)}); ` +
          `of which a run's own ${four((r) => ms(r.fixedCpuSeconds))}, ` +
          `and marginal per event ${four((r) => us(r.marginalCpuSeconds))} ` +
          `(ours ÷ floor ${(o.marginalCpuSeconds / f.marginalCpuSeconds).toFixed(2)})`
        : ""),
  );
  return result;
}

/** This machine's ceiling: autocannon against the same endpoint with the same body and a fixed token. */
async function measureCeiling(ready: SandboxReady, token: string, body: ConstantBody) {
  console.log("Ceiling: autocannon, 50 connections, 8 s, fixed token…");
  const ceiling = await autocannon({
    url: `${ready.baseUrl}/events`,
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: `${body.head}ac-[<id>]${body.tail}`,
    idReplacement: true,
    connections: 50,
    duration: 8,
  });
  return { ceiling, accepted: ceiling.statusCodeStats["202"]?.count ?? 0 };
}

type Figure = "rate" | "cpu" | "memory";

/** One goal: a ratio of one figure, its bound, and which side of it is good. */
interface Goal {
  readonly figure: Figure;
  readonly ratio: "oursOverFloor" | "oursOverMinimal";
  readonly bound: number;
  readonly atLeast: boolean;
}

const GOAL_LIST: readonly Goal[] = [
  { figure: "rate", ratio: "oursOverFloor", bound: GOALS.rateOverFloor, atLeast: true },
  { figure: "cpu", ratio: "oursOverFloor", bound: GOALS.cpuOverFloor, atLeast: false },
  { figure: "memory", ratio: "oursOverFloor", bound: GOALS.memoryOverFloor, atLeast: false },
  { figure: "memory", ratio: "oursOverMinimal", bound: GOALS.memoryOverMinimal, atLeast: false },
];

const FIGURE_NAMES: Readonly<Record<Figure, string>> = {
  rate: "highest rate held",
  cpu: `k6 CPU per event @${CPU_RATE}/s`,
  memory: "peak memory per VU",
};

/** A goal judged on the rounds: met only on a steady median that keeps the bound. */
interface GoalVerdict {
  readonly goal: Goal;
  readonly outcome: "met" | "missed" | "unsteady" | "not measured";
  readonly median: number | undefined;
  readonly text: string;
}

function ratiosOf(results: readonly Round[], figure: Figure, ratio: keyof RoundRatios): number[] {
  return results.flatMap((r) => {
    const value = r[figure]?.[ratio];
    // A figure this run did not measure (--rate-only, --no-rate) divides zero by zero.
    return value === undefined || !Number.isFinite(value) ? [] : [value];
  });
}

function judgeGoal(results: readonly Round[], goal: Goal): GoalVerdict {
  const name = `${FIGURE_NAMES[goal.figure]}, ${goal.ratio === "oursOverFloor" ? "ours ÷ floor (with tokens)" : "ours ÷ minimal"}`;
  const bound = `${goal.atLeast ? "≥" : "≤"} ${goal.bound.toFixed(2)}`;
  const values = ratiosOf(results, goal.figure, goal.ratio);
  if (values.length === 0)
    return { goal, outcome: "not measured", median: undefined, text: `${name}: not measured` };
  const middle = median(values);
  const kept = goal.atLeast ? middle >= goal.bound : middle <= goal.bound;
  const unsteady = values.some((value) => Math.abs(value - middle) > STEADY);
  const figure = `${name} ${spread(values)} against ${bound}`;
  if (unsteady)
    return {
      goal,
      outcome: "unsteady",
      median: middle,
      text: `${figure}: unsteady (a round more than ±${STEADY.toFixed(2)} from the median), not counted as met${kept ? " although the median keeps the bound" : ""}`,
    };
  return {
    goal,
    outcome: kept ? "met" : "missed",
    median: middle,
    text: `${figure}: ${kept ? "met" : "missed"}`,
  };
}

/** Prints each figure with its ratios and their spreads, and the ceiling; returns every goal's verdict. */
function printFigures(
  results: readonly Round[],
  bundles: readonly BundleResult[],
  ceiling: { ceiling: AutocannonResult; accepted: number },
  options: BenchOptions,
): GoalVerdict[] {
  const { measureRate, measureCost } = options;
  const cpuOf = (pick: (r: Round) => ScriptRound) => results.flatMap((r) => pick(r).cpuPerEventSeconds);
  const memOf = (pick: (r: Round) => ScriptRound) => results.map((r) => pick(r).memoryPerVuBytes);
  const rateOf = (pick: (r: Round) => ScriptRound) =>
    results.flatMap((r) => (pick(r).rate === undefined ? [] : [pick(r).rate as number]));
  const largest = bundles.reduce((max, b) => (b.bytes > max.bytes ? b : max), { scenario: "", bytes: 0 });
  const row = (figure: Figure, show: (pick: (r: Round) => ScriptRound) => string): string[] => [
    FIGURE_NAMES[figure],
    show((r) => r.ours),
    show((r) => r.floor),
    show((r) => r.bare),
    show((r) => r.minimal),
    spread(ratiosOf(results, figure, "oursOverFloor")),
    spread(ratiosOf(results, figure, "oursOverBare")),
    spread(ratiosOf(results, figure, "oursOverMinimal")),
    spread(ratiosOf(results, figure, "floorOverBare")),
  ];
  const rows: string[][] = [
    [
      "median (spread)",
      "ours",
      "floor",
      "no tokens",
      "minimal",
      "ours ÷ floor",
      "ours ÷ no tokens",
      "ours ÷ minimal",
      "floor ÷ no tokens",
    ],
    ...(measureCost ? [row("cpu", (pick) => us(median(cpuOf(pick))))] : []),
    ...(measureRate ? [row("rate", (pick) => `${median(rateOf(pick))}/s`)] : []),
    ...(measureCost ? [row("memory", (pick) => kb(median(memOf(pick))))] : []),
  ];
  console.log("");
  for (const cells of rows)
    console.log(`  ${cells.map((cell, i) => cell.padEnd(i === 0 ? 26 : i < 5 ? 10 : 18)).join(" ")}`);
  if (measureCost) {
    const part = (pick: (r: Round) => ScriptRound, key: "fixedCpuSeconds" | "marginalCpuSeconds") =>
      median(results.map((r) => pick(r)[key]));
    const marginalRatios = results.map((r) => r.ours.marginalCpuSeconds / r.floor.marginalCpuSeconds);
    console.log(
      `  ${FIGURE_NAMES.cpu} in two parts (not judged): a run's own ${ms(part((r) => r.ours, "fixedCpuSeconds"))}, ` +
        `floor ${ms(part((r) => r.floor, "fixedCpuSeconds"))}, without tokens ${ms(part((r) => r.bare, "fixedCpuSeconds"))}, minimal ${ms(part((r) => r.minimal, "fixedCpuSeconds"))}; ` +
        `marginal per event ${us(part((r) => r.ours, "marginalCpuSeconds"))}, floor ${us(part((r) => r.floor, "marginalCpuSeconds"))}, ` +
        `without tokens ${us(part((r) => r.bare, "marginalCpuSeconds"))}, ` +
        `minimal ${us(part((r) => r.minimal, "marginalCpuSeconds"))}, ours ÷ floor ${spread(marginalRatios)}`,
    );
  }
  console.log(`  largest bundle: ${largest.scenario} ${formatKb(largest.bytes)} (≤ 100 KB)`);
  console.log(
    `  autocannon ceiling: ${Math.round(ceiling.ceiling.requests.average)} req/s (${ceiling.accepted} of ${ceiling.ceiling.requests.total} answered 202)`,
  );
  const verdicts = GOAL_LIST.map((goal) => judgeGoal(results, goal));
  console.log("");
  for (const verdict of verdicts) console.log(`  ${verdict.text}`);
  return verdicts;
}

/** The figures as JSON in reports/bench/, for comparing runs. */
async function writeFigures(
  k6: K6Binary,
  results: readonly Round[],
  bundles: readonly BundleResult[],
  ceiling: { ceiling: AutocannonResult; accepted: number },
  verdicts: readonly GoalVerdict[],
  options: BenchOptions,
): Promise<void> {
  const reportDir = path.resolve("reports", "bench");
  await mkdir(reportDir, { recursive: true });
  const reportFile = path.join(reportDir, `load-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  await writeFile(
    reportFile,
    `${JSON.stringify(
      {
        k6: k6.version,
        search: options.search,
        rounds: results,
        pinned: PIN,
        gogc: process.env.GOGC ?? null,
        cpuReps: options.cpuReps,
        cpuSeconds: options.cpuSeconds,
        memorySeconds: options.memorySeconds,
        floorWithout: options.floorCut ?? null,
        oursWithout: [...options.oursWithout],
        goals: verdicts.map((v) => ({
          figure: v.goal.figure,
          ratio: v.goal.ratio,
          bound: v.goal.bound,
          atLeast: v.goal.atLeast,
          median: v.median ?? null,
          outcome: v.outcome,
        })),
        bundles: bundles.map((b) => ({ scenario: b.scenario, bytes: b.bytes })),
        autocannon: {
          perSecond: ceiling.ceiling.requests.average,
          total: ceiling.ceiling.requests.total,
          accepted: ceiling.accepted,
        },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`  (figures in ${path.relative(process.cwd(), reportFile)})`);
}

/** Every goal judged: exit 1 when one is missed, unsteady or not measured. */
function judgeGoals(
  verdicts: readonly GoalVerdict[],
  bundleError: string | undefined,
  options: BenchOptions,
): number {
  const { measureRate, measureCost } = options;
  const open = verdicts.filter((v) => v.outcome !== "met");
  if (!measureRate) console.log("Highest rate not measured (--no-rate): the run cannot pass.");
  if (!measureCost) console.log("CPU and memory not measured (--rate-only): the run cannot pass.");
  if (bundleError !== undefined) console.log(`Goal missed: ${bundleError}`);
  if (open.length > 0) console.log(`Not met: ${open.length} of ${verdicts.length} goals (above).`);
  else if (bundleError === undefined) console.log("Every goal met.");
  return open.length > 0 || bundleError !== undefined ? 1 : 0;
}

async function main(): Promise<number> {
  const options = readOptions();
  if (options === undefined) {
    await serve();
    return -1;
  }
  const { rounds, search } = options;
  const k6 = await ensureK6({ env: process.env, stderr: process.stderr });
  const { bundles, bundleError } = await bundleEveryScenario();
  const workDir = await mkdtemp(path.join(tmpdir(), "bench-load-"));
  const { server, ready: serverReady } = await startServer();
  try {
    const ready = await serverReady();
    const token = await fetchToken(ready);
    const bundle = bundles.find((b) => b.scenario === "sustained");
    const { minimal, bare, floor, ours, constantBody } = await writeScripts(
      k6,
      ready,
      token,
      bundle,
      options.floorCut,
      options.oursWithout,
      workDir,
    );
    console.log(
      `k6 ${k6.version}; ${rounds} round(s); probes of ${search.seconds} s, ${PROBE_VUS} pre-allocated VUs; ` +
        `CPU runs of ${options.cpuSeconds} s; ` +
        `memory from ${MEMORY_VUS[0]} to ${MEMORY_VUS[1]} VUs at ${MEMORY_RATE}/s for ${options.memorySeconds} s; ` +
        (PIN ? "sandbox pinned to CPU 0, k6 to CPU 1" : "not pinned (taskset or a second CPU missing)") +
        (options.floorCut === undefined ? "" : `; floor without ${options.floorCut}`) +
        (options.oursWithout.size === 0 ? "" : `; ours without ${[...options.oursWithout].join(", ")}`),
    );
    const scripts = [minimal, bare, floor, ours] as const;
    const chosen = scripts.filter((script) => options.scripts.includes(script.label as ScriptLabel));
    if (options.at !== undefined) {
      const probed =
        options.against === undefined ? chosen : [ours, { ...ours, label: "against", file: options.against }];
      await probesAt(k6, probed, positive("at", options.at, 100_000), options, workDir);
      return 0;
    }
    if (options.profile !== undefined) {
      const profileRate = positive("profile", options.profile, 100_000);
      for (const script of chosen) await profile(k6, script, profileRate, search.seconds, workDir);
      return 0;
    }
    const results: Round[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      results.push(await measureRound(k6, round, scripts, options, workDir));
    }
    const ceiling = await measureCeiling(ready, token, constantBody);
    const verdicts = printFigures(results, bundles, ceiling, options);
    await writeFigures(k6, results, bundles, ceiling, verdicts, options);
    return judgeGoals(verdicts, bundleError, options);
  } finally {
    server.disconnect();
    await rm(workDir, { recursive: true, force: true });
  }
}

const code = await main();
if (code >= 0) process.exitCode = code;
