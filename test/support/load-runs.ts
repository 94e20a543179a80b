import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, expect } from "vitest";
import { loadCommand } from "../../cli/commands/load.ts";
import { ensureK6 } from "../../k6-tooling/binary/k6-binary.ts";
import { METRIC } from "../../load/index.ts";
import type { FaultName, RunningSandbox } from "../../sandbox/index.ts";
import { startFixedLifetimeServer } from "./fixed-lifetime-server.ts";
import type { SandboxRequest } from "./fixtures.ts";
import { test } from "./fixtures.ts";
import { everyFileText } from "./report-texts.ts";
import { runInProcess, toolEnv } from "./run-in-process.ts";

/**
 * Readies k6 before the file's first test, with the resolver the command uses: on a machine without k6 this builds
 * the pinned version once, which takes minutes.
 */
export function beforeAllK6(): void {
  beforeAll(async () => {
    await ensureK6({ env: process.env, stderr: process.stderr });
  }, 600_000);
}

/** The parts of a load run's summary.json the tests read. */
export interface LoadSummary {
  readonly metrics: Record<
    string,
    { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }
  >;
  readonly harness: {
    verdict: { level: string };
    failedThresholds: Array<{ metric: string; expression: string }>;
    context?: { instances?: Array<{ eventsAccepted: number }> };
  };
}

export interface LoadRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly reportDir: string;
  readonly summary: LoadSummary;
}

/** A metric's count in a summary, 0 when k6 never saw it. */
export function count(summary: LoadSummary, metric: string): number {
  return summary.metrics[metric]?.values.count ?? 0;
}

/** Accepted events are the false samples of the events_failed Rate. */
export function accepted(summary: LoadSummary): number {
  return summary.metrics[METRIC.eventsFailed]?.values.fails ?? 0;
}

/** The target of a started sandbox, given the way a user would: URLs as flags, the secret in the environment. */
export function targetOf(sandbox: RunningSandbox): { args: string[]; env: NodeJS.ProcessEnv } {
  const first = sandbox.clients[0] as { clientId: string; clientSecret: string };
  return {
    args: ["--auth-url", sandbox.authUrl, "--base-url", sandbox.baseUrl, "--client-id", first.clientId],
    env: { EVENT_API_CLIENT_SECRET: first.clientSecret },
  };
}

/**
 * The load runs of one test file: each in-process (k6 is still a real child process) with a report directory of
 * its own, and every secret, output and report kept so the file's last test can search them all for secrets.
 */
export class LoadRuns {
  readonly secrets: string[] = [];
  /** Every stdout and stderr of every run. */
  readonly outputs: string[] = [];
  readonly #workDir: string;

  constructor(workDir: string) {
    this.#workDir = workDir;
  }

  /** A client with a fresh random secret, remembered for the search. */
  client(label: string): { clientId: string; clientSecret: string } {
    const secret = `load-test-${label}-secret-${randomBytes(8).toString("hex")}`;
    this.secrets.push(secret);
    return { clientId: `load-test-${label}`, clientSecret: secret };
  }

  /** A report directory of its own, for a run the test starts itself. */
  reportDir(): Promise<string> {
    return mkdtemp(path.join(this.#workDir, "report-"));
  }

  /** Runs `event-harness load …` with its own report directory; env adds to what k6 needs to be found. */
  async run(
    args: readonly string[],
    env: NodeJS.ProcessEnv = {},
    signal: AbortSignal = new AbortController().signal,
  ): Promise<LoadRun> {
    const reportDir = await this.reportDir();
    const { code, stdout, stderr } = await runInProcess(
      loadCommand,
      [...args, "--report-dir", reportDir],
      { ...toolEnv(), ...env },
      signal,
    );
    this.outputs.push(stdout, stderr);
    const summary = await readFile(path.join(reportDir, "summary.json"), "utf8")
      .then((text) => JSON.parse(text) as LoadSummary)
      .catch(() => ({ metrics: {}, harness: { verdict: { level: "none" }, failedThresholds: [] } }));
    return { code, stdout, stderr, reportDir, summary };
  }

  /** Every file of every run's report directory, as text (dashboard data unpacked). */
  async reportTexts(): Promise<Array<[string, string]>> {
    const texts: Array<[string, string]> = [];
    for (const dir of await readdir(this.#workDir)) {
      if (dir.startsWith("report-")) texts.push(...(await everyFileText(path.join(this.#workDir, dir))));
    }
    return texts;
  }
}

/** A token: three base64url parts after a JSON header. */
const JWT = /eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/;

/** No secret of the file's runs, no access token and not the demo secret, in any output or report file. */
export async function expectNoSecretInLoads(loads: LoadRuns): Promise<void> {
  const texts = await loads.reportTexts();
  expect(texts.some(([file]) => file.endsWith("dashboard.html (data)"))).toBe(true);
  expect(loads.secrets.length).toBeGreaterThan(0);
  for (const [file, text] of [
    ...loads.outputs.map((text, i) => [`output ${i}`, text] as [string, string]),
    ...texts,
  ]) {
    for (const secret of loads.secrets) expect(text.includes(secret), `${secret} in ${file}`).toBe(false);
    expect(JWT.exec(text)?.[0], `a token in ${file}`).toBeUndefined();
    expect(text.includes("sandbox-demo-secret"), `the demo secret in ${file}`).toBe(false);
  }
}

/** The token lifetime of the real k6 runs' sandbox: short enough that tokens expire within a run of seconds. */
export const LOAD_EXPIRES_IN = 2;
/** How long one real k6 run may take, machine load included. */
export const LOAD_RUN_TIMEOUT_MS = 90_000;

/** The sandbox of the real k6 runs: the short lifetime, a fifth of events failed under a fraction fault. */
export function loadSandbox(
  loads: LoadRuns,
  faults: FaultName[] = [],
  clients = [loads.client("main")],
): SandboxRequest {
  return { expiresIn: LOAD_EXPIRES_IN, faults, faultRate: 0.2, clients };
}

/** A fixed-lifetime OAuth server's target flags and environment (its client's secret remembered for the search). */
export interface FixedLifetimeTarget {
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The shared fixtures plus `loads`, one LoadRuns for the whole file (its directory removed after the last test),
 * and `fixedLifetime(expiresIn)`: an OAuth server whose tokens die a fixed time after issue, closed after the test.
 */
export const loadTest = test
  .extend(
    "loads",
    { scope: "file" },
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; none here.
    async ({}, { onCleanup }) => {
      const workDir = await mkdtemp(path.join(tmpdir(), "load-runs-"));
      onCleanup(() => rm(workDir, { recursive: true, force: true }));
      return new LoadRuns(workDir);
    },
  )
  .extend("fixedLifetime", async ({ loads }, { onCleanup }) => {
    const closers: Array<() => Promise<void>> = [];
    onCleanup(async () => {
      await Promise.all(closers.map((close) => close()));
    });
    return async (expiresIn: number): Promise<FixedLifetimeTarget> => {
      const credential = loads.client("fixed");
      const server = await startFixedLifetimeServer({ ...credential, expiresIn });
      closers.push(() => server.close());
      return {
        args: [
          "--auth-url",
          server.authUrl,
          "--base-url",
          server.baseUrl,
          "--client-id",
          credential.clientId,
        ],
        env: { EVENT_API_CLIENT_SECRET: credential.clientSecret },
      };
    };
  });
