/**
 * Throughput of the sandbox, against a bare node:http baseline measured in the same run.
 *
 *   npm run bench:sandbox [-- --duration 8 --connections 50 --rounds 3 --profile reports/bench-profiles]
 *
 * Each server runs in its own child process, so it shares no event loop with the load generator (autocannon, in this
 * process). Measured: (a) POST /api/events with a valid token, (b) a bare server that only parses the JSON body and
 * answers 202, (c) token grants. The runs alternate (bare, events, grants per round) and the median of the rounds
 * counts, because other work on a 2-core machine skews any single run. Goals: events ≥ 70 % of bare, ≥ 5,000
 * grants/s. Exits 1 when a goal is missed or a run saw unexpected statuses, so the figures are never silently wrong.
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startSandbox } from "../../sandbox/index.ts";
import { fetchToken } from "./fetch-token.ts";

/** The part of autocannon's untyped API this benchmark uses. */
interface AutocannonOptions {
  url: string;
  method: "POST";
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
  idReplacement?: boolean;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const EVENTS_GOAL = 0.7;
const GRANTS_GOAL = 5_000;
const WARM_UP_SECONDS = 2;

/** One constant valid event; autocannon puts a fresh id into `[<id>]` so no reference repeats (no 409s). */
const EVENT_BODY = JSON.stringify({
  type: "checkout",
  customer: { email: "ada.lovelace@example.com", firstName: "Ada", lastName: "Lovelace" },
  channel: { id: "chl-0f8e1c2a-5b0d-4e1f-9a5c-3d2b1a0f9e8d", type: "etrusted" },
  transaction: { reference: "ord-[<id>]", date: "2026-01-02T03:04:05.678Z" },
  system: "event-api-harness-bench",
  systemVersion: "0.1.0",
});

type Ready = { readonly kind: "bare"; readonly url: string } | SandboxReady;
interface SandboxReady {
  readonly kind: "sandbox";
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}
/** A child's CPU time so far, in µs, sent when the parent asks. */
interface CpuReport {
  readonly cpu: number;
}

/** Child mode: serve until the parent disconnects; answer "cpu" with the CPU time used so far. */
async function serve(kind: string): Promise<void> {
  process.on("message", (message) => {
    if (message !== "cpu") return;
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system } satisfies CpuReport);
  });
  if (kind === "sandbox") {
    const sandbox = await startSandbox({ expiresIn: 3600 });
    const client = sandbox.clients[0];
    if (client === undefined) throw new Error("the sandbox has no client");
    process.once("disconnect", () => void sandbox.close().then(() => process.exit(0)));
    process.send?.({ kind, authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, ...client } satisfies Ready);
    return;
  }
  const accepted = JSON.stringify({ Message: "accepted" });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(202, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(accepted),
      });
      res.end(accepted);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    process.send?.({ kind: "bare", url } satisfies Ready);
  });
  process.once("disconnect", () => server.close(() => process.exit(0)));
}

interface Child {
  readonly process: ChildProcess;
  readonly ready: Ready;
}

async function startChild(kind: "sandbox" | "bare", profileDir: string | undefined): Promise<Child> {
  // The child keeps this process's execArgv, so it loads TypeScript through tsx as well.
  const profile = profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}/${kind}`];
  const child = fork(fileURLToPath(import.meta.url), ["--serve", kind], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [...process.execArgv, ...profile],
  });
  const [ready] = (await once(child, "message")) as [Ready];
  return { process: child, ready };
}

async function cpuOf(child: Child): Promise<number> {
  const reply = once(child.process, "message") as Promise<[CpuReport]>;
  child.process.send("cpu");
  return (await reply)[0].cpu;
}

async function stopChild(child: Child): Promise<void> {
  const exited = once(child.process, "exit");
  child.process.disconnect();
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  if (child.process.exitCode === null) {
    console.log(`(the ${child.ready.kind} server did not stop in time: killed)`);
    child.process.kill();
  }
}

interface Run {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** Server CPU time (user + system) per answered request, µs. */
  readonly cpuPerRequest: number;
  readonly unexpected: number;
}

interface Scenario {
  readonly label: string;
  readonly server: Child;
  readonly options: Omit<AutocannonOptions, "duration" | "connections">;
  readonly expected: number;
  readonly runs: Run[];
}

async function runOnce(scenario: Scenario, connections: number, duration: number): Promise<Run> {
  const cpuBefore = await cpuOf(scenario.server);
  const result = await autocannon({ ...scenario.options, connections, duration });
  const cpu = (await cpuOf(scenario.server)) - cpuBefore;
  const ok = result.statusCodeStats[String(scenario.expected)]?.count ?? 0;
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: cpu / Math.max(1, result.requests.total),
    unexpected: result.requests.total - ok + result.errors,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function positive(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`--${name} takes 1–${max}, got ${raw}`);
  return value;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      serve: { type: "string" },
      duration: { type: "string", default: "8" },
      connections: { type: "string", default: "50" },
      rounds: { type: "string", default: "3" },
      /** Writes V8 CPU profiles of the servers into this folder (open them in Chrome DevTools). */
      profile: { type: "string" },
    },
  });
  if (values.serve !== undefined) {
    await serve(values.serve);
    return -1;
  }
  const duration = positive("duration", values.duration, 120);
  const connections = positive("connections", values.connections, 1_000);
  const rounds = positive("rounds", values.rounds, 10);

  const sandbox = await startChild("sandbox", values.profile);
  const bare = await startChild("bare", values.profile);
  try {
    if (sandbox.ready.kind !== "sandbox" || bare.ready.kind !== "bare") throw new Error("children mixed up");
    const token = await fetchToken(sandbox.ready);
    // Both servers get byte-identical requests, token included, so the load generator does the same work for each.
    const eventHeaders = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const scenarios: [Scenario, Scenario, Scenario] = [
      {
        label: "bare node:http, parse JSON, 202",
        server: bare,
        options: {
          url: bare.ready.url,
          method: "POST",
          headers: eventHeaders,
          body: EVENT_BODY,
          idReplacement: true,
        },
        expected: 202,
        runs: [],
      },
      {
        label: "sandbox POST /api/events",
        server: sandbox,
        options: {
          url: `${sandbox.ready.baseUrl}/events`,
          method: "POST",
          headers: eventHeaders,
          body: EVENT_BODY,
          idReplacement: true,
        },
        expected: 202,
        runs: [],
      },
      {
        label: "sandbox token grants",
        server: sandbox,
        options: {
          url: `${sandbox.ready.authUrl}/oauth/token`,
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            client_id: sandbox.ready.clientId,
            client_secret: sandbox.ready.clientSecret,
            grant_type: "client_credentials",
            audience: sandbox.ready.baseUrl,
          }).toString(),
        },
        expected: 200,
        runs: [],
      },
    ];

    console.log(`Warming up (${WARM_UP_SECONDS} s each)…`);
    for (const scenario of scenarios) await runOnce(scenario, connections, WARM_UP_SECONDS);
    console.log(`Measuring: ${rounds} round(s) of ${duration} s per scenario, ${connections} connections…`);
    for (let round = 1; round <= rounds; round += 1) {
      for (const scenario of scenarios) scenario.runs.push(await runOnce(scenario, connections, duration));
      const figures = scenarios.map((s) => Math.round(s.runs.at(-1)?.perSecond ?? 0).toLocaleString("en-US"));
      console.log(`  round ${round}: ${figures.join(" / ")} req/s`);
    }

    const summary = scenarios.map((scenario) => ({
      label: scenario.label,
      perSecond: median(scenario.runs.map((run) => run.perSecond)),
      p50: median(scenario.runs.map((run) => run.p50)),
      p99: median(scenario.runs.map((run) => run.p99)),
      cpuPerRequest: median(scenario.runs.map((run) => run.cpuPerRequest)),
      unexpected: scenario.runs.reduce((sum, run) => sum + run.unexpected, 0),
    }));
    const width = Math.max(...summary.map((s) => s.label.length));
    console.log("Medians:");
    for (const s of summary) {
      console.log(
        `  ${s.label.padEnd(width)}  ${Math.round(s.perSecond).toLocaleString("en-US").padStart(7)} req/s` +
          `  p50 ${s.p50} ms  p99 ${s.p99} ms  server CPU ${s.cpuPerRequest.toFixed(1)} µs/request` +
          `${s.unexpected > 0 ? `  (${s.unexpected} unexpected answers)` : ""}`,
      );
    }
    const [bareSummary, eventsSummary, grantsSummary] = summary as [
      (typeof summary)[number],
      (typeof summary)[number],
      (typeof summary)[number],
    ];
    const ratio = eventsSummary.perSecond / bareSummary.perSecond;
    const eventsOk = ratio >= EVENTS_GOAL;
    const grantsOk = grantsSummary.perSecond >= GRANTS_GOAL;
    const clean = summary.every((s) => s.unexpected === 0);
    console.log(
      `  events / bare = ${(ratio * 100).toFixed(1)} % (goal ≥ ${EVENTS_GOAL * 100} %): ${eventsOk ? "met" : "MISSED"}`,
    );
    console.log(
      `  grants = ${Math.round(grantsSummary.perSecond).toLocaleString("en-US")}/s ` +
        `(goal ≥ ${GRANTS_GOAL.toLocaleString("en-US")}/s): ${grantsOk ? "met" : "MISSED"}`,
    );
    if (!clean)
      console.log("  Some answers had an unexpected status: the figures above are not trustworthy.");
    return eventsOk && grantsOk && clean ? 0 : 1;
  } finally {
    await stopChild(sandbox);
    await stopChild(bare);
  }
}

const code = await main();
if (code >= 0) process.exitCode = code;
