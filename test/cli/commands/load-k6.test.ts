import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  EVENT_DURATION,
  EXPIRY,
  METRIC,
  scenarioIterations,
  TOKEN_FAILURES,
  tokenRefreshes,
} from "../../../load/index.ts";
import { describe, expect } from "../../support/fixtures.ts";
import {
  accepted,
  beforeAllK6,
  count,
  expectNoSecretInLoads,
  loadTest as it,
  LOAD_EXPIRES_IN,
  LOAD_RUN_TIMEOUT_MS,
  loadSandbox,
  targetOf,
} from "../../support/load-runs.ts";

/** Real k6 runs of every scenario against the sandbox: seconds each, with a lifetime short enough to expire tokens. */

beforeAllK6();

describe("load: real k6 runs against the sandbox", () => {
  it(
    "goes on with the other client authentication when only the configured one is refused, and says so once",
    async ({ loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads, ["token-basic-only"]));
      const { args, env } = targetOf(sb);
      const run = await loads.run(["sustained", "--rate", "5", "--duration", "2s", ...args], env);
      expect(run.code, run.stderr).toBe(0);
      const note =
        "the credentials for client load-test-main were refused with --client-auth post but work with --client-auth basic: going on with basic";
      expect(run.stderr.split(note).length - 1).toBe(1);
    },
    LOAD_RUN_TIMEOUT_MS,
  );

  it(
    "sustained passes against the correct sandbox, spreading VUs over a credentials file",
    async ({ loads, sandbox, tmpDir }) => {
      const sb = await sandbox(loadSandbox(loads, [], [loads.client("one"), loads.client("two")]));
      const file = path.join(tmpDir, "credentials.json");
      await writeFile(
        file,
        JSON.stringify({
          clients: sb.clients.map((c) => ({ client_id: c.clientId, client_secret: c.clientSecret })),
        }),
      );
      const run = await loads.run(
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
    LOAD_RUN_TIMEOUT_MS,
  );

  it.for([
    ["ramp", ["--rate", "20"]],
    ["spike", ["--rate", "10"]],
    ["soak", ["--rate", "10"]],
    ["token-storm", ["--vus", "10"]],
  ] as const)(
    "%s runs against the correct sandbox, passes and writes its reports",
    { timeout: LOAD_RUN_TIMEOUT_MS },
    async ([scenario, sizing], { loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads));
      const run = await loads.run(
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
  );

  it(
    "sustained longer than expires_in fails against a fixed lifetime: violations, k6 99 → exit 1",
    async ({ loads }) => {
      const run = await loads.run([
        "sustained",
        "--rate",
        "20",
        "--duration",
        "5s",
        "--sandbox-expires-in",
        String(LOAD_EXPIRES_IN),
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
    LOAD_RUN_TIMEOUT_MS,
  );

  it(
    "says why iterations were dropped (k6 ran out of VUs) on the console and in summary.md, not only in k6.log",
    async ({ loads }) => {
      // One VU and 200 ms a request cannot keep 40 events/s: k6 drops iterations and warns it has no VU free.
      const run = await loads.run([
        "sustained",
        "--rate",
        "40",
        "--vus",
        "1",
        "--duration",
        "2s",
        "--sandbox-latency",
        "200",
      ]);
      // The target kept its latency objective: the pool, not the API, fell short, so the run has no verdict.
      expect(run.code).toBe(3);
      expect(run.stdout).toContain("the generator, not the API, limited this run");
      expect(run.stdout).toContain("give k6 more VUs (--vus)");
      const cause =
        /k6 ran out of VUs \("Insufficient VUs, reached \d+ active VUs and cannot initialize more"\)/;
      expect(run.stdout).toMatch(new RegExp(`dropped iterations \\d+: ${cause.source}`));
      expect(await readFile(path.join(run.reportDir, "summary.md"), "utf8")).toMatch(cause);
    },
    LOAD_RUN_TIMEOUT_MS,
  );

  it(
    "sustained shorter than expires_in says sliding expiry was not exercised, and how long a run would need",
    async ({ loads }) => {
      // A fixed lifetime of 30 s and a 3 s run: no token lives long enough to tell sliding from fixed expiry.
      const run = await loads.run([
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
    LOAD_RUN_TIMEOUT_MS,
  );

  describe("against an OAuth server whose tokens expire a fixed time after issue (exp in whole seconds)", () => {
    it(
      "sustained shorter than expires_in passes its thresholds but says sliding expiry was not exercised",
      async ({ loads, fixedLifetime }) => {
        const target = await fixedLifetime(30);
        const run = await loads.run(
          ["sustained", "--rate", "20", "--duration", "3s", ...target.args],
          target.env,
        );
        expect(run.code).toBe(0);
        expect(run.summary.harness.verdict.level).toBe("not-exercised");
        expect(run.stdout).toContain("SLIDING EXPIRY: NOT EXERCISED");
        expect(run.stdout).toContain("--duration 34s or longer");
      },
      LOAD_RUN_TIMEOUT_MS,
    );
  });

  it(
    "a fraction of 5xx events trips the error-rate threshold, and --threshold can relax it",
    async ({ loads, sandbox }) => {
      const sb = await sandbox(loadSandbox(loads, ["events-5xx-fraction"]));
      const args = ["sustained", "--rate", "20", "--duration", "3s", ...targetOf(sb).args];
      const strict = await loads.run(args, targetOf(sb).env);
      expect(strict.code).toBe(1);
      expect(strict.summary.harness.failedThresholds).toEqual([
        expect.objectContaining({ metric: METRIC.eventsFailed, expression: "rate<0.01" }),
      ]);
      const rejected503 = count(strict.summary, `${METRIC.eventsRejected}{status:503}`);
      expect(rejected503 / count(strict.summary, scenarioIterations("sustained"))).toBeCloseTo(0.2, 1);
      expect(strict.stderr).toContain("thresholds failed: events_failed rate<0.01");

      const relaxed = await loads.run([...args, "--threshold", "events_failed=rate<0.5"], targetOf(sb).env);
      expect(relaxed.code).toBe(0);
      expect(relaxed.summary.metrics[METRIC.eventsFailed]?.thresholds).toEqual({ "rate<0.5": { ok: true } });
    },
    LOAD_RUN_TIMEOUT_MS,
  );
});

describe("load: a short secret", () => {
  it("leaves the harness's own words whole (a secret 'events' does not rewrite events_failed)", async ({
    loads,
    sandbox,
  }) => {
    const sb = await sandbox(loadSandbox(loads, [], [{ clientId: "short-secret", clientSecret: "events" }]));
    const run = await loads.run(
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
  it("appear in no output and no report file (dashboard data included)", async ({ loads }) => {
    await expectNoSecretInLoads(loads);
  });
});
