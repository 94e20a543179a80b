/**
 * Events/s held by `event-harness load sustained --instances 2` next to one instance, against the same sandbox in the
 * same run, and the time load --instances takes to merge a 60 s run.
 *
 *   npm run bench:load-instances [-- --rounds 2 --seconds 10 --rates 800,1200,1600,2000,2400,2800,3200 --merge 60]
 *
 * One sandbox (its own child process, a long expires_in) serves every run. Each probe is a real CLI run at a constant
 * rate with 300 VUs; a rate is held when k6 dropped no iteration and under 1 % of events failed (from the merged
 * summary). Rounds alternate one and two instances, rate by rate upward, and stop a configuration at its first miss;
 * the medians over rounds count, because the machine is shared. Not pinned: two k6 processes and the sandbox share
 * the CPUs, which is the point on a machine with few cores.
 */
import { type ChildProcess, fork, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startSandbox } from "../../sandbox/index.ts";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));
const VUS = 300;
const CLIENT = { clientId: "bench-instances", clientSecret: "bench-instances-secret" };

interface Ready {
  readonly authUrl: string;
  readonly baseUrl: string;
}

async function serve(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, expiresIn: 3600, clients: [CLIENT] });
  process.once("disconnect", () => void sandbox.close().then(() => process.exit(0)));
  process.send?.({ authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl } satisfies Ready);
}

interface Probe {
  readonly held: boolean;
  readonly accepted: number;
  readonly dropped: number;
  readonly failedRate: number;
  readonly seconds: number;
  readonly mergeSeconds: number | undefined;
}

async function probe(
  target: Ready,
  instances: number,
  rate: number,
  seconds: number,
  workDir: string,
): Promise<Probe> {
  const reportDir = await mkdtemp(path.join(workDir, `i${instances}-r${rate}-`));
  const child = spawn(
    process.execPath,
    [
      CLI,
      "load",
      "sustained",
      "--instances",
      String(instances),
      "--rate",
      String(rate),
      "--duration",
      `${seconds}s`,
      "--vus",
      String(VUS),
      "--auth-url",
      target.authUrl,
      "--base-url",
      target.baseUrl,
      "--client-id",
      CLIENT.clientId,
      "--report-dir",
      reportDir,
    ],
    { env: { ...process.env, EVENT_API_CLIENT_SECRET: CLIENT.clientSecret }, stdio: "ignore" },
  );
  await once(child, "close");
  try {
    const summary = JSON.parse(await readFile(path.join(reportDir, "summary.json"), "utf8")) as {
      metrics: Record<string, { values: Record<string, number> }>;
      state: { testRunDurationMs: number };
    };
    const run = JSON.parse(await readFile(path.join(reportDir, "run.json"), "utf8")) as {
      mergeSeconds?: number;
    };
    const value = (metric: string, stat: string) => summary.metrics[metric]?.values[stat] ?? 0;
    const dropped = value("dropped_iterations", "count");
    const failedRate = value("events_failed", "rate");
    return {
      held: dropped === 0 && failedRate < 0.01,
      accepted: value("events_failed", "fails"),
      dropped,
      failedRate,
      seconds: summary.state.testRunDurationMs / 1000,
      mergeSeconds: run.mergeSeconds,
    };
  } catch {
    return {
      held: false,
      accepted: 0,
      dropped: Number.NaN,
      failedRate: 1,
      seconds: 0,
      mergeSeconds: undefined,
    };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      serve: { type: "boolean" },
      rounds: { type: "string", default: "2" },
      seconds: { type: "string", default: "10" },
      rates: { type: "string", default: "800,1200,1600,2000,2400,2800,3200" },
      merge: { type: "string", default: "60" },
    },
  });
  if (values.serve) {
    await serve();
    return -1;
  }
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const rates = values.rates.split(",").map(Number);
  const mergeRunSeconds = Number(values.merge);
  const workDir = await mkdtemp(path.join(tmpdir(), "bench-instances-"));
  const server: ChildProcess = fork(fileURLToPath(import.meta.url), ["--serve"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const [target] = (await once(server, "message")) as [Ready];
    process.stdout.write(
      `bench:load-instances: ${availableParallelism()} CPUs (shared with other work), ${rounds} round(s), ${seconds}s probes, ${VUS} VUs\n`,
    );
    const held: Record<1 | 2, number[]> = { 1: [], 2: [] };
    for (let round = 1; round <= rounds; round += 1) {
      const best: Record<1 | 2, number> = { 1: 0, 2: 0 };
      const open: Record<1 | 2, boolean> = { 1: true, 2: true };
      for (const rate of rates) {
        for (const instances of round % 2 === 1 ? ([1, 2] as const) : ([2, 1] as const)) {
          if (!open[instances]) continue;
          const result = await probe(target, instances, rate, seconds, workDir);
          process.stdout.write(
            `  round ${round}, ${instances} instance(s), ${rate}/s: ${result.held ? "held" : "MISSED"} (accepted ${result.accepted} in ${result.seconds.toFixed(1)}s, dropped ${result.dropped}, failed ${(result.failedRate * 100).toFixed(2)}%)\n`,
          );
          if (result.held) best[instances] = rate;
          else open[instances] = false;
        }
        if (!open[1] && !open[2]) break;
      }
      held[1].push(best[1]);
      held[2].push(best[2]);
    }
    const one = median(held[1]);
    const two = median(held[2]);
    process.stdout.write(
      `highest rate held: 1 instance ${one}/s (${held[1].join(", ")}), 2 instances ${two}/s (${held[2].join(", ")}); ratio ${(two / Math.max(1, one)).toFixed(2)}\n`,
    );
    if (mergeRunSeconds > 0) {
      const rate = Math.max(400, Math.min(one, two));
      const result = await probe(target, 2, rate, mergeRunSeconds, workDir);
      process.stdout.write(
        `merge of a ${mergeRunSeconds}s run at ${rate}/s over 2 instances (${result.accepted} events): ${result.mergeSeconds?.toFixed(2) ?? "?"}s\n`,
      );
    }
    return 0;
  } finally {
    server.disconnect();
    await rm(workDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench:load-instances: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 3;
  },
);
