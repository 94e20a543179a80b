import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { freeLoopbackPort } from "../../../k6-tooling/run/k6-control.ts";
import {
  EVENT_DURATION,
  EXPIRY,
  METRIC,
  scenarioIterations,
  TOKEN_FAILURES,
  tokenRefreshes,
} from "../../../load/index.ts";
import type { FaultName, RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import type { FixedLifetimeServer } from "../../support/fixed-lifetime-server.ts";
import { startFixedLifetimeServer } from "../../support/fixed-lifetime-server.ts";
import {
  alive,
  K6_EXTERNAL_ABORT,
  k6Children,
  untilK6Children,
  untilK6Running,
} from "../../support/k6-processes.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** Real k6 runs against the sandbox: seconds each, with a lifetime short enough to expire tokens mid-run. */
const EXPIRES_IN = 2;
const RUN_TIMEOUT_MS = 90_000;
const CLI = fileURLToPath(new URL("../../../bin/event-harness.js", import.meta.url));

interface LoadRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly reportDir: string;
  readonly summary: Summary;
}

interface Summary {
  readonly metrics: Record<
    string,
    { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }
  >;
  readonly harness: {
    verdict: { level: string };
    failedThresholds: Array<{ metric: string; expression: string }>;
  };
}

let workDir: string;
const secrets: string[] = [];
/** Every stdout/stderr of every run, searched for secrets at the end. */
const outputs: string[] = [];
const sandboxes: RunningSandbox[] = [];
const fixedServers: FixedLifetimeServer[] = [];

function count(summary: Summary, metric: string): number {
  return summary.metrics[metric]?.values.count ?? 0;
}

/** Accepted events are the false samples of the events_failed Rate. */
function accepted(summary: Summary): number {
  return summary.metrics[METRIC.eventsFailed]?.values.fails ?? 0;
}

function client(label: string) {
  const secret = `load-test-${label}-secret-${randomBytes(8).toString("hex")}`;
  secrets.push(secret);
  return { clientId: `load-test-${label}`, clientSecret: secret };
}

async function sandbox(faults: FaultName[] = [], clients = [client("main")]): Promise<RunningSandbox> {
  const started = await startSandbox({ port: 0, expiresIn: EXPIRES_IN, faults, faultRate: 0.2, clients });
  sandboxes.push(started);
  return started;
}

/** The target of a started sandbox, given the way a user would: URLs as flags, the secret in the environment. */
function targetOf(sb: RunningSandbox): { args: string[]; env: NodeJS.ProcessEnv } {
  const first = sb.clients[0] as { clientId: string; clientSecret: string };
  return {
    args: ["--auth-url", sb.authUrl, "--base-url", sb.baseUrl, "--client-id", first.clientId],
    env: { EVENT_API_CLIENT_SECRET: first.clientSecret },
  };
}

/** Runs `event-harness load …` in-process (k6 is still a real child process), with its own report directory. */
async function load(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  signal: AbortSignal = new AbortController().signal,
): Promise<LoadRun> {
  const reportDir = await mkdtemp(path.join(workDir, "report-"));
  const baseEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
  };
  const {
    code,
    stdout: out,
    stderr: err,
  } = await runInProcess(loadCommand, [...args, "--report-dir", reportDir], { ...baseEnv, ...env }, signal);
  outputs.push(out, err);
  const summary = await readFile(path.join(reportDir, "summary.json"), "utf8")
    .then((text) => JSON.parse(text) as Summary)
    .catch(() => ({ metrics: {}, harness: { verdict: { level: "none" }, failedThresholds: [] } }));
  return { code, stdout: out, stderr: err, reportDir, summary };
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "load-command-"));
  // The same resolver the command uses; on a machine without k6 this builds the pinned version once.
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

afterAll(async () => {
  await Promise.all([...sandboxes, ...fixedServers].map((server) => server.close()));
  await rm(workDir, { recursive: true, force: true });
});

describe("load: usage errors (exit 2, before k6 starts)", () => {
  it.each([
    ["an unknown scenario", ["stampede"], "unknown scenario 'stampede'"],
    ["--rate for a closed model", ["idle-gap", "--rate", "5"], "--rate does not apply to idle-gap"],
    [
      "a malformed --threshold",
      ["sustained", "--threshold", "events_failed=mean<1"],
      "not a threshold expression",
    ],
    [
      "a --threshold on token_refreshes, no longer a metric",
      ["sustained", "--threshold", "token_refreshes=count>=0"],
      "--threshold 'token_refreshes' is no longer a metric: refreshes are the token requests of reasons idle, lifetime and rejected that got a token: name one of token_requests{reason:idle,outcome:issued}",
    ],
    ["an unknown client model", ["sustained", "--client-model", "psychic"], "--client-model takes one of"],
    ["a malformed duration", ["sustained", "--duration", "soon"], "--duration takes a duration"],
    ["an unknown sandbox fault", ["sustained", "--sandbox-fault", "gremlins"], "unknown --sandbox-fault"],
    ["a partial target", ["sustained", "--base-url", "http://127.0.0.1:9"], "an external target needs"],
  ])("rejects %s", async (_label, args, message) => {
    const run = await load(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("rejects --credentials without a target", async () => {
    const file = path.join(workDir, "lonely-credentials.json");
    await writeFile(file, JSON.stringify([{ client_id: "a", client_secret: "b-secret" }]));
    const run = await load(["sustained", "--credentials", file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "an external target needs --auth-url (EVENT_API_AUTH_URL) or --token-url (EVENT_API_TOKEN_URL), --base-url",
    );
  });
});

describe("load: could not run (exit 3)", () => {
  it("says so when the token endpoint is unreachable", async () => {
    const gone = await startSandbox({ port: 0 });
    await gone.close();
    const run = await load(["sustained", ...targetOf(gone).args], targetOf(gone).env);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^event-harness: cannot reach the token endpoint http:\/\/127\.0\.0\.1:(\d+)\/.*oauth\/token \(127\.0\.0\.1:\1: connection refused\)$/m,
    );
  });

  it("says so when the credentials are refused", async () => {
    const sb = await sandbox();
    const { args } = targetOf(sb);
    const run = await load(["sustained", ...args], { EVENT_API_CLIENT_SECRET: "not-the-secret" });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      "event-harness: the credentials for client load-test-main were refused (401 with --client-auth post, 401 with basic): check the client id and secret, or whether the secret was rotated\n",
    );
  });

  it("goes on with the other client authentication when only the configured one is refused, and says so once", async () => {
    const sb = await sandbox(["token-basic-only"]);
    const { args, env } = targetOf(sb);
    const run = await load(["sustained", "--rate", "5", "--duration", "2s", ...args], env);
    expect(run.code, run.stderr).toBe(0);
    const note =
      "the credentials for client load-test-main were refused with --client-auth post but work with --client-auth basic: going on with basic";
    expect(run.stderr.split(note).length - 1).toBe(1);
  });
});

describe("load: real k6 runs against the sandbox", () => {
  it(
    "sustained passes against the correct sandbox, spreading VUs over a credentials file",
    async () => {
      const sb = await sandbox([], [client("one"), client("two")]);
      const file = path.join(workDir, "credentials.json");
      await writeFile(
        file,
        JSON.stringify({
          clients: sb.clients.map((c) => ({ client_id: c.clientId, client_secret: c.clientSecret })),
        }),
      );
      const run = await load(
        // Spare VUs, so a busy CI machine does not make k6 drop an iteration of this short run.
        [
          "sustained",
          "--rate",
          "20",
          "--duration",
          "4s",
          "--vus",
          "10",
          "--auth-url",
          sb.authUrl,
          "--base-url",
          sb.baseUrl,
        ],
        { EVENT_API_CREDENTIALS_FILE: file },
      );
      expect(run.stderr).not.toContain("thresholds failed");
      expect(run.code).toBe(0);
      // Live progress: the run outlasts the first 5 s tick, and stderr is no terminal, so plain lines, with figures
      // read from k6's REST API one metric at a time.
      expect(run.stderr).toMatch(
        /^event-harness: \d+s of about \d+s · \d+ accepted, \d+ failed · .* \d+ expiry violations$/m,
      );
      const { summary } = run;
      const iterations = count(summary, scenarioIterations("sustained"));
      expect(iterations).toBeGreaterThanOrEqual(75);
      expect(accepted(summary)).toBe(iterations);
      // The warm-up ran one iteration per pre-allocated VU, each fetching that VU's first token.
      expect(count(summary, "iterations") - iterations).toBe(10);
      expect(count(summary, `${METRIC.tokenRequests}{reason:initial}`)).toBe(10);
      expect(count(summary, METRIC.eventsRejected)).toBe(0);
      expect(count(summary, EXPIRY.unexpected)).toBe(0);
      expect(count(summary, EXPIRY.outlived)).toBe(0);
      // No 401 ever: every refresh the sliding client made was its own, ahead of expiry.
      expect(count(summary, `${METRIC.tokenRequests}{reason:rejected}`)).toBe(0);
      expect(count(summary, tokenRefreshes("idle"))).toBe(
        count(summary, `${METRIC.tokenRequests}{reason:idle}`),
      );
      expect(summary.metrics[TOKEN_FAILURES]?.values.count).toBe(0);
      expect(summary.metrics[EVENT_DURATION]?.values["p(95)"]).toBeGreaterThan(0);
      expect(summary.harness.verdict.level).toBe("held");
      expect(run.stdout).toContain("PASSED");
      expect(run.stdout).toContain("SLIDING EXPIRY: HELD");
      const files = await readdir(run.reportDir);
      expect(files).toEqual(
        expect.arrayContaining([
          "summary.json",
          "summary.md",
          "junit.xml",
          "dashboard.html",
          "run.json",
          "event-templates.json",
          // The exact script k6 ran, bundled into the report rather than into the package.
          "sustained.js",
        ]),
      );
      const junit = await readFile(path.join(run.reportDir, "junit.xml"), "utf8");
      expect(junit).toContain('failures="0"');
    },
    RUN_TIMEOUT_MS,
  );

  it.each([
    ["ramp", ["--rate", "20"]],
    ["spike", ["--rate", "10"]],
    ["soak", ["--rate", "10"]],
    ["token-storm", ["--vus", "10"]],
  ])(
    "%s runs against the correct sandbox, passes and writes its reports",
    async (scenario, sizing) => {
      const sb = await sandbox();
      const run = await load(
        [scenario, ...sizing, "--duration", "4s", ...targetOf(sb).args],
        targetOf(sb).env,
      );
      expect(run.stderr).not.toContain("thresholds failed");
      expect(run.code).toBe(0);
      expect(accepted(run.summary)).toBeGreaterThan(0);
      expect(count(run.summary, EXPIRY.unexpected)).toBe(0);
      expect(count(run.summary, METRIC.tokenRequests)).toBeGreaterThan(0);
      expect(await readdir(run.reportDir)).toEqual(
        expect.arrayContaining(["summary.json", "summary.md", "junit.xml", "dashboard.html", "run.json"]),
      );
      expect(await readFile(path.join(run.reportDir, "summary.md"), "utf8")).toContain(
        `# Load report: ${scenario}`,
      );
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "idle-gap passes against the correct sandbox: one token per cycle, used past expires_in, through a gap over half of it, refreshed after each long gap",
    async () => {
      const sb = await sandbox();
      const run = await load(["idle-gap", "--vus", "2", "--quiet", ...targetOf(sb).args], targetOf(sb).env);
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/ of about /);
      const { summary } = run;
      // 2 VUs × 2 cycles: every long gap ends in a confirmed expiry and exactly one refresh.
      expect(count(summary, EXPIRY.idle)).toBe(4);
      expect(count(summary, tokenRefreshes("rejected"))).toBe(4);
      expect(count(summary, tokenRefreshes("idle")) + count(summary, tokenRefreshes("lifetime"))).toBe(0);
      expect(summary.metrics[TOKEN_FAILURES]?.values.count).toBe(0);
      expect(count(summary, `${METRIC.tokenRequests}{reason:rejected}`)).toBe(4);
      expect(count(summary, METRIC.tokenRequests)).toBe(2 + 4);
      expect(count(summary, EXPIRY.unexpected)).toBe(0);
      expect(count(summary, EXPIRY.outlived)).toBe(0);
      // Each cycle's token: accepted past expires_in + margin after its issue once, and after its mid gap.
      expect(count(summary, EXPIRY.extended)).toBe(4);
      expect(count(summary, EXPIRY.survived)).toBe(4);
      // 2 VUs × (1 + 2 cycles × (mid + 3 short + long)) bursts × 3 events, all accepted.
      expect(accepted(summary)).toBe(2 * 11 * 3);
      expect(summary.harness.verdict.level).toBe("held");
      expect(await readFile(path.join(run.reportDir, "summary.md"), "utf8")).toContain(
        "## Sliding expiry: HELD",
      );
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "sustained longer than expires_in fails against a fixed lifetime: violations, k6 99 → exit 1",
    async () => {
      const run = await load([
        "sustained",
        "--rate",
        "20",
        "--duration",
        "5s",
        "--sandbox-expires-in",
        String(EXPIRES_IN),
        "--sandbox-fault",
        "expiry-fixed",
      ]);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.unexpected)).toBeGreaterThan(0);
      expect(run.summary.metrics[EXPIRY.unexpected]?.thresholds?.["count==0"]?.ok).toBe(false);
      expect(run.summary.harness.verdict.level).toBe("broken");
      expect(run.stderr).toMatch(
        /thresholds failed: token_expiries\{kind:unexpected\} count==0 \(count=\d+\)/,
      );
      const runJson = JSON.parse(await readFile(path.join(run.reportDir, "run.json"), "utf8")) as {
        k6ExitCode: number;
        sandboxFaults: string[];
      };
      expect(runJson).toMatchObject({ k6ExitCode: 99, sandboxFaults: ["expiry-fixed"] });
      // The client recovered each time: refresh, retry, accepted.
      expect(count(run.summary, METRIC.eventsRejected)).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "idle-gap fails against a target whose idle tokens never expire",
    async () => {
      const sb = await sandbox(["expiry-never"]);
      const run = await load(["idle-gap", "--vus", "2", ...targetOf(sb).args], targetOf(sb).env);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.outlived)).toBe(4);
      expect(count(run.summary, EXPIRY.idle)).toBe(0);
      // One token per VU all run long: no second token to be seen used past expires_in after its issue.
      expect(run.summary.harness.failedThresholds.map((t) => `${t.metric} ${t.expression}`).sort()).toEqual([
        "token_expiries{kind:extended} count>=4",
        "token_expiries{kind:idle} count>=4",
        "token_expiries{kind:outlived} count==0",
      ]);
      expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
    },
    RUN_TIMEOUT_MS,
  );

  it.each([
    // The token dies expires_in after its issue however busy it is: refused within the short gaps past expires_in.
    ["expiry-fixed", ["token_expiries{kind:extended} count>=4"]],
    // Idle tokens die after half of expires_in: refused after the gap between half of expires_in and expires_in, and
    // the token that replaces it mid-cycle is not used long enough to pass expires_in.
    ["expiry-early", ["token_expiries{kind:extended} count>=4", "token_expiries{kind:survived} count>=4"]],
  ] as const)(
    "idle-gap fails against the sandbox fault %s: a token in use refused, and the rule it breaks never seen to hold",
    async (fault, unproven) => {
      const sb = await sandbox([fault]);
      const run = await load(["idle-gap", "--vus", "2", ...targetOf(sb).args], targetOf(sb).env);
      expect(run.code).toBe(1);
      expect(count(run.summary, EXPIRY.unexpected)).toBeGreaterThan(0);
      expect(run.summary.harness.failedThresholds.map((t) => `${t.metric} ${t.expression}`).sort()).toEqual(
        ["token_expiries{kind:unexpected} count==0", ...unproven].sort(),
      );
      expect(run.summary.harness.verdict.level).toBe("broken");
      expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
      expect(run.stdout).not.toContain("PASSED");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "sustained shorter than expires_in says sliding expiry was not exercised, and how long a run would need",
    async () => {
      // A fixed lifetime of 30 s and a 3 s run: no token lives long enough to tell sliding from fixed expiry.
      const run = await load([
        "sustained",
        "--rate",
        "20",
        "--duration",
        "3s",
        "--sandbox-expires-in",
        "30",
        "--sandbox-fault",
        "expiry-fixed",
      ]);
      expect(run.code).toBe(0);
      expect(run.summary.harness.verdict.level).toBe("not-exercised");
      expect(run.stdout).toContain("SLIDING EXPIRY: NOT EXERCISED");
      expect(run.stdout).not.toContain("HELD");
      // expires_in 30 s + the default margin of 3 s: a token must be in use for longer than 33 s.
      expect(run.stdout).toContain("--duration 34s or longer");
      const markdown = await readFile(path.join(run.reportDir, "summary.md"), "utf8");
      expect(markdown).toContain("## Sliding expiry: NOT EXERCISED");
      expect(await readFile(path.join(run.reportDir, "junit.xml"), "utf8")).toContain("<skipped");
    },
    RUN_TIMEOUT_MS,
  );

  describe("against an OAuth server whose tokens expire a fixed time after issue (exp in whole seconds)", () => {
    async function fixedLifetime(expiresIn: number) {
      const credential = client("fixed");
      const server = await startFixedLifetimeServer({ ...credential, expiresIn });
      fixedServers.push(server);
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
    }

    it(
      "idle-gap fails: a token in use refused, and none seen valid past expires_in after its issue",
      async () => {
        const target = await fixedLifetime(EXPIRES_IN);
        const run = await load(["idle-gap", "--vus", "2", ...target.args], target.env);
        expect(run.code).toBe(1);
        expect(count(run.summary, EXPIRY.unexpected)).toBeGreaterThan(0);
        expect(count(run.summary, EXPIRY.extended)).toBe(0);
        expect(run.summary.harness.failedThresholds.map((t) => `${t.metric} ${t.expression}`)).toEqual(
          expect.arrayContaining([
            "token_expiries{kind:unexpected} count==0",
            "token_expiries{kind:extended} count>=4",
          ]),
        );
        expect(run.stdout).toContain("SLIDING EXPIRY: BROKEN");
      },
      RUN_TIMEOUT_MS,
    );

    it(
      "sustained shorter than expires_in passes its thresholds but says sliding expiry was not exercised",
      async () => {
        const target = await fixedLifetime(30);
        const run = await load(["sustained", "--rate", "20", "--duration", "3s", ...target.args], target.env);
        expect(run.code).toBe(0);
        expect(run.summary.harness.verdict.level).toBe("not-exercised");
        expect(run.stdout).toContain("SLIDING EXPIRY: NOT EXERCISED");
        expect(run.stdout).toContain("--duration 34s or longer");
      },
      RUN_TIMEOUT_MS,
    );
  });

  it(
    "a fraction of 5xx events trips the error-rate threshold, and --threshold can relax it",
    async () => {
      const sb = await sandbox(["events-5xx-fraction"]);
      const args = ["sustained", "--rate", "20", "--duration", "3s", ...targetOf(sb).args];
      const strict = await load(args, targetOf(sb).env);
      expect(strict.code).toBe(1);
      expect(strict.summary.harness.failedThresholds).toEqual([
        expect.objectContaining({ metric: METRIC.eventsFailed, expression: "rate<0.01" }),
      ]);
      const rejected503 = count(strict.summary, `${METRIC.eventsRejected}{status:503}`);
      expect(rejected503 / count(strict.summary, scenarioIterations("sustained"))).toBeCloseTo(0.2, 1);
      expect(strict.stderr).toContain("thresholds failed: events_failed rate<0.01");

      const relaxed = await load([...args, "--threshold", "events_failed=rate<0.5"], targetOf(sb).env);
      expect(relaxed.code).toBe(0);
      expect(relaxed.summary.metrics[METRIC.eventsFailed]?.thresholds).toEqual({ "rate<0.5": { ok: true } });
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "token-storm fails when token requests fail mid-run (the secret rotated without overlap): failed token requests",
    async () => {
      const sb = await sandbox();
      const { clientId } = sb.clients[0] as { clientId: string };
      const pending = load(
        ["token-storm", "--vus", "5", "--duration", "4s", ...targetOf(sb).args],
        targetOf(sb).env,
      );
      // After the preflight (k6 runs): the VUs' token requests, not the harness's, are refused from now on.
      await untilK6Children(1);
      await sb.rotateSecret(clientId);
      const run = await pending;
      expect(run.code).toBe(1);
      const failures = count(run.summary, TOKEN_FAILURES);
      expect(failures).toBeGreaterThan(0);
      expect(run.summary.metrics[TOKEN_FAILURES]?.thresholds?.["count==0"]?.ok).toBe(false);
      expect(run.stderr).toMatch(
        /thresholds failed: .*token_requests\{outcome:failed\} count==0 \(count=\d+\)/,
      );
      // Each iteration's own token: none replaced a held one, so no refresh, failed or not.
      expect(count(run.summary, `${METRIC.tokenRequests}{reason:per-iteration}`)).toBe(
        count(run.summary, METRIC.tokenRequests),
      );
      expect(await readFile(path.join(run.reportDir, "summary.md"), "utf8")).toContain(
        `- Refreshes (a held token replaced): 0\n- Failed token requests: ${failures}\n`,
      );
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "Ctrl+C stops k6 (exit 105, recorded as aborted in run.json): exit 3, no k6 left running, no secret on its command line",
    async () => {
      const sb = await sandbox();
      const controller = new AbortController();
      // k6's REST API on a port of the test's own (K6_* settings reach k6), to see k6 run instead of guessing when.
      const address = `127.0.0.1:${await freeLoopbackPort()}`;
      const pending = load(
        ["sustained", "--duration", "60s", ...targetOf(sb).args],
        { ...targetOf(sb).env, K6_ADDRESS: address },
        controller.signal,
      );
      await untilK6Running(address);
      const [child, ...others] = await k6Children();
      expect(others).toEqual([]);
      if (child === undefined) throw new Error("k6 runs, but is not a child of this process");
      for (const secret of secrets) expect(child.cmdline).not.toContain(secret);
      controller.abort();
      const run = await pending;
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("aborted; k6 was stopped");
      const runJson = JSON.parse(await readFile(path.join(run.reportDir, "run.json"), "utf8")) as unknown;
      expect(runJson).toMatchObject({ aborted: true, timedOut: false, k6ExitCode: K6_EXTERNAL_ABORT });
      expect(alive(child.pid)).toBe(false);
      expect(await k6Children()).toEqual([]);
      await expectAbortedEverywhere(run.stdout, run.reportDir);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "SIGTERM (a CI runner cancelling) aborts the real CLI the same way: ABORTED everywhere, exit 3",
    async () => {
      const sb = await sandbox();
      const reportDir = await mkdtemp(path.join(workDir, "report-"));
      const address = `127.0.0.1:${await freeLoopbackPort()}`;
      const child = spawn(
        process.execPath,
        [CLI, "load", "sustained", "--duration", "60s", ...targetOf(sb).args, "--report-dir", reportDir],
        {
          env: { ...process.env, ...targetOf(sb).env, K6_ADDRESS: address, NO_COLOR: "1" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        stdout += data;
      });
      child.stderr.setEncoding("utf8").on("data", (data: string) => {
        stderr += data;
      });
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      await untilK6Running(address);
      child.kill("SIGTERM");
      const code = await closed;
      outputs.push(stdout, stderr);
      expect(code, stderr).toBe(3);
      expect(stderr).toContain("aborted; k6 was stopped");
      await expectAbortedEverywhere(stdout, reportDir, "SIGTERM");
    },
    RUN_TIMEOUT_MS,
  );
});

/** What an interrupted load run must leave: ABORTED in every output, never PASSED, and only files that exist listed. */
async function expectAbortedEverywhere(stdout: string, reportDir: string, signal?: string): Promise<void> {
  expect(stdout).not.toContain("PASSED");
  expect(stdout).toMatch(/^ {2}ABORTED: interrupted/m);
  const markdown = await readFile(path.join(reportDir, "summary.md"), "utf8");
  expect(markdown).toMatch(/\*\*Result: ABORTED: interrupted/);
  expect(markdown).not.toContain("PASSED");
  const junit = await readFile(path.join(reportDir, "junit.xml"), "utf8");
  expect(junit).toMatch(/<error message="ABORTED: interrupted[^"]*" type="aborted"/);
  const summaryJson = JSON.parse(await readFile(path.join(reportDir, "summary.json"), "utf8")) as {
    harness: { result: { outcome: string; reason: string } };
  };
  expect(summaryJson.harness.result.outcome).toBe("aborted");
  const runJson = JSON.parse(await readFile(path.join(reportDir, "run.json"), "utf8")) as {
    result: { outcome: string; reason: string };
  };
  expect(runJson.result.outcome).toBe("aborted");
  if (signal) expect(runJson.result.reason).toContain(signal);
  const listed = /^Reports: (.*)$/m.exec(stdout)?.[1];
  expect(listed, stdout).toBeDefined();
  const names = (listed ?? "").split(", ").map((name) => path.basename(name));
  const present = await readdir(reportDir);
  for (const name of names) expect(present, `listed ${name}`).toContain(name);
}

describe("load: a short secret", () => {
  it("leaves the harness's own words whole (a secret 'events' does not rewrite events_failed)", async () => {
    const sb = await sandbox([], [{ clientId: "short-secret", clientSecret: "events" }]);
    const run = await load(
      ["sustained", "--duration", "2s", "--rate", "5", "--vus", "2", ...targetOf(sb).args],
      targetOf(sb).env,
    );
    expect(run.code, run.stderr).toBe(0);
    const junit = await readFile(path.join(run.reportDir, "junit.xml"), "utf8");
    const markdown = await readFile(path.join(run.reportDir, "summary.md"), "utf8");
    for (const [where, text] of [
      ["console", run.stdout + run.stderr],
      ["junit.xml", junit],
      ["summary.md", markdown],
    ]) {
      expect(text, where).not.toContain("<CLIENT_SECRET>");
    }
    expect(junit).toContain("events_failed");
    expect(run.stderr).not.toContain("redacted secrets found");
  });
});

describe("load: secrets", () => {
  const JWT = /eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/;

  async function reportTexts(): Promise<Array<[string, string]>> {
    const texts: Array<[string, string]> = [];
    for (const dir of await readdir(workDir)) {
      if (!dir.startsWith("report-")) continue;
      for (const name of await readdir(path.join(workDir, dir))) {
        const file = path.join(workDir, dir, name);
        const text = await readFile(file, "utf8");
        texts.push([file, text]);
        const data = /<script[^>]*id="data"[^>]*>([\s\S]*?)<\/script>/.exec(text)?.[1];
        // The dashboard's data is gzipped base64: look inside too.
        if (data)
          texts.push([`${file} (data)`, gunzipSync(Buffer.from(data.trim(), "base64")).toString("utf8")]);
      }
    }
    return texts;
  }

  it("appear in no output and no report file (dashboard data included)", async () => {
    const texts = await reportTexts();
    expect(texts.some(([file]) => file.endsWith("dashboard.html (data)"))).toBe(true);
    expect(secrets.length).toBeGreaterThan(0);
    for (const [file, text] of [
      ...outputs.map((text, i) => [`output ${i}`, text] as [string, string]),
      ...texts,
    ]) {
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${file}`).toBe(false);
      expect(JWT.exec(text)?.[0], `a token in ${file}`).toBeUndefined();
      expect(text.includes("sandbox-demo-secret"), `the demo secret in ${file}`).toBe(false);
    }
  });
});
