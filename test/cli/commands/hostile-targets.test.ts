import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_CLIENT } from "../../../sandbox/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import type { HostileKind, HostileOptions } from "../../support/hostile-server.ts";
import { HOSTILE_KINDS, startHostileServer } from "../../support/hostile-server.ts";
import { runCli } from "../../support/run-cli.ts";

const SECRET = "hostile-test-secret-51c3a9e0";
const TIMEOUT_S = 1;
/**
 * The README's bound: requests that wait one after another, at most two per endpoint (token, events) before the
 * endpoint is given up, so 4 × --timeout; plus start-up and reports, for which this margin is generous.
 */
const WAITS = 4;
const MARGIN_MS = 30_000;
const LIMIT_MS = WAITS * TIMEOUT_S * 1000 + MARGIN_MS;
/** What a check says when the target's response body passed the harness's cap. */
const CAP_MESSAGE = "response body exceeded 1 MiB";
/**
 * A --timeout no request may reach against the endless body: reading 1 MiB over loopback takes milliseconds, so a
 * "no answer within" would mean a request read on until its deadline, its body growing all the while.
 */
const LONG_TIMEOUT_S = 600;
/** What a check says when the target's body is JSON nested past the harness's depth cap. */
const SHAPE_MESSAGE = "response JSON nests deeper than 64 levels";
/** Writes a CLI child's peak resident set (kB) to EAH_PEAK_RSS_FILE when it exits. */
const PEAK_RSS_HOOK = fileURLToPath(new URL("../../support/peak-rss-hook.mjs", import.meta.url));

function targetArgs(url: string, timeoutS: number): string[] {
  return [
    "--auth-url",
    `${url}/auth`,
    "--base-url",
    `${url}/api`,
    "--client-id",
    "hostile-client",
    "--timeout",
    String(timeoutS),
  ];
}

async function everything(dir: string, run: { stdout: string; stderr: string }): Promise<string> {
  const files = await readdir(dir);
  const texts = await Promise.all(files.map((file) => readFile(join(dir, file), "utf8")));
  return [run.stdout, run.stderr, ...texts].join("\n");
}

/**
 * Runs the real CLI against a hostile server, with its reports in `dir`: a child process, so its exit, not only its
 * verdict, is what must come in bounded time.
 */
async function againstHostile(
  dir: string,
  kind: HostileKind,
  args: readonly string[],
  timeoutS: number = TIMEOUT_S,
  options: HostileOptions = {},
  env: NodeJS.ProcessEnv = {},
) {
  const server = await startHostileServer(kind, options);
  try {
    // The child is killed at twice the bound, so a hang fails this test instead of CI.
    const run = await runCli(
      [...args, ...targetArgs(server.url, timeoutS), "--report-dir", dir],
      { EVENT_API_CLIENT_SECRET: SECRET, ...env },
      2 * LIMIT_MS,
    );
    return { run, dir };
  } finally {
    await server.close();
  }
}

describe("a verdict in bounded time against targets that never answer properly", () => {
  for (const kind of HOSTILE_KINDS) {
    it(
      `contract (fast) ends undecided, with its reports, against a target that ${kind}`,
      async ({ tmpDir }) => {
        const { run, dir } = await againstHostile(tmpDir, kind, ["contract"]);
        expect(run.code, run.stderr).toBe(3);
        expect(run.ms).toBeLessThan(LIMIT_MS);
        for (const file of ["results.json", "junit.xml", "summary.md"])
          expect(existsSync(join(dir, file))).toBe(true);
        const results = JSON.parse(await readFile(join(dir, "results.json"), "utf8")) as {
          checks: Array<{ status: string }>;
          couldNotTest?: string;
        };
        // The preflight stops the run before any check: each is SKIP, the run could-not-test with its reason.
        expect(new Set(results.checks.map((check) => check.status))).toEqual(new Set(["SKIP"]));
        expect(results.couldNotTest).toBeDefined();
        if (kind === "never-answers" || kind === "headers-only" || kind === "trickle")
          expect(results.couldNotTest).toContain(`no answer within ${TIMEOUT_S}.0 s`);
        if (kind === "endless-body") expect(results.couldNotTest).toContain(CAP_MESSAGE);
        if (kind === "nested-arrays") expect(results.couldNotTest).toContain(SHAPE_MESSAGE);
        expect(run.stderr.split(results.couldNotTest as string)).toHaveLength(2);
        const text = await everything(dir, run);
        for (const leak of [SECRET, encodeURIComponent(SECRET)]) expect(text).not.toContain(leak);
      },
      2 * LIMIT_MS,
    );
  }

  it(
    "contract (full) ends undecided too: the sliding-expiry probes wait no longer than the rest",
    async ({ tmpDir }) => {
      const { run, dir } = await againstHostile(tmpDir, "trickle", ["contract", "--profile", "full"]);
      expect(run.code, run.stderr).toBe(3);
      expect(run.ms).toBeLessThan(LIMIT_MS);
      const results = await readFile(join(dir, "results.json"), "utf8");
      expect(results).toMatch(/"id": "lifetime\.sliding"[^}]*"status": "SKIP"/s);
      expect(results).toContain(`no answer within ${TIMEOUT_S}.0 s`);
      expect(await everything(dir, run)).not.toContain(SECRET);
    },
    2 * LIMIT_MS,
  );

  it(
    "verify-rotation ends undecided, with its reports, against a silent target",
    async ({ tmpDir }) => {
      const { run, dir } = await againstHostile(tmpDir, "never-answers", ["verify-rotation"]);
      expect(run.code, run.stderr).toBe(3);
      // Its checks make four requests one after another.
      expect(run.ms).toBeLessThan(4 * TIMEOUT_S * 1000 + MARGIN_MS);
      expect(existsSync(join(dir, "results.json"))).toBe(true);
      expect(await everything(dir, run)).not.toContain(SECRET);
    },
    2 * LIMIT_MS,
  );

  it(
    "the load preflight gives up after one --timeout against a trickling token endpoint",
    async ({ tmpDir }) => {
      const { run } = await againstHostile(tmpDir, "trickle", ["load", "sustained"]);
      expect(run.code, run.stderr).toBe(3);
      expect(run.ms).toBeLessThan(TIMEOUT_S * 1000 + MARGIN_MS);
      expect(run.stderr).toMatch(/cannot reach the token endpoint .*no answer within 1\.0 s/);
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    },
    2 * LIMIT_MS,
  );
});

describe("bounded memory against a target whose body never ends", () => {
  it(
    "contract (fast): the preflight's token request ends at the body cap, not at its deadline; could-not-test, reports written",
    async ({ tmpDir }) => {
      const { run, dir } = await againstHostile(tmpDir, "endless-body", ["contract"], LONG_TIMEOUT_S);
      expect(run.code, run.stderr).toBe(3);
      for (const file of ["results.json", "junit.xml", "summary.md"])
        expect(existsSync(join(dir, file))).toBe(true);
      const results = JSON.parse(await readFile(join(dir, "results.json"), "utf8")) as {
        checks: Array<{ status: string; message: string }>;
        couldNotTest?: string;
      };
      expect(results.checks.length).toBeGreaterThan(0);
      for (const check of results.checks) expect(check.status).toBe("SKIP");
      expect(results.couldNotTest).toContain(`with a body too large for a token (${CAP_MESSAGE})`);
      const text = await everything(dir, run);
      expect(text).not.toContain("no answer within");
      expect(text).not.toContain("harness error");
      for (const leak of [SECRET, encodeURIComponent(SECRET)]) expect(text).not.toContain(leak);
    },
    2 * LIMIT_MS,
  );

  it(
    "verify-rotation: ERROR at the body cap, with its reports",
    async ({ tmpDir }) => {
      const { run, dir } = await againstHostile(tmpDir, "endless-body", ["verify-rotation"], LONG_TIMEOUT_S);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stdout).toMatch(
        new RegExp(`ERROR +rotation\\.new-secret +MUST +could not decide: ${CAP_MESSAGE}`),
      );
      expect(existsSync(join(dir, "results.json"))).toBe(true);
      const text = await everything(dir, run);
      expect(text).not.toContain("no answer within");
      expect(text).not.toContain(SECRET);
    },
    2 * LIMIT_MS,
  );

  it(
    "the load preflight gives up at the body cap",
    async ({ tmpDir }) => {
      const { run } = await againstHostile(tmpDir, "endless-body", ["load", "sustained"], LONG_TIMEOUT_S);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(
        new RegExp(
          `the token endpoint .* answered client .* with a body too large for a token \\(${CAP_MESSAGE}\\)`,
        ),
      );
      expect(run.stderr).not.toContain("cannot reach");
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    },
    2 * LIMIT_MS,
  );
});

describe("bounded memory whatever the JSON's shape", () => {
  /**
   * The CLI's resident peak against a healthy sandbox is about 470 MB; 1 MiB of nested arrays in every events answer
   * took it to 3 GB, each parsed answer some 30 MB and the checks keeping dozens of them.
   */
  const PEAK_RSS_LIMIT_KB = 1024 * 1024;

  it(
    "contract against nested arrays behind a working token endpoint: ERROR at the shape cap, peak memory bounded",
    async ({ tmpDir }) => {
      const peakFile = join(tmpDir, "nested-peak-rss");
      const { run, dir } = await againstHostile(
        tmpDir,
        "nested-arrays",
        ["contract", "--only", "events"],
        LONG_TIMEOUT_S,
        { tokens: { expiresIn: 300 } },
        { NODE_OPTIONS: `--import=${PEAK_RSS_HOOK}`, EAH_PEAK_RSS_FILE: peakFile },
      );
      expect(run.code, run.stderr).toBe(3);
      const results = JSON.parse(await readFile(join(dir, "results.json"), "utf8")) as {
        checks: Array<{ status: string; message: string }>;
      };
      // Every check of the events area in the fast profile, the formats the spec states among them: none left out.
      expect(results.checks.length).toBe(8);
      for (const check of results.checks)
        expect(check).toMatchObject({ status: "ERROR", message: `could not decide: ${SHAPE_MESSAGE}` });
      const peakKb = Number(await readFile(peakFile, "utf8"));
      expect(peakKb).toBeGreaterThan(0);
      expect(peakKb).toBeLessThan(PEAK_RSS_LIMIT_KB);
    },
    2 * LIMIT_MS,
  );
});

describe("an expires_in longer than a run can wait", () => {
  /** About 25.5 days: past what Node's timers hold (2^31 − 1 ms, 24.8 days). */
  const HUGE_EXPIRES_IN = 2_200_000;

  it(
    "contract (full): the fast checks get their verdicts, each lifetime check is ERROR naming expires_in, exit 3",
    async ({ tmpDir, sandbox: start }) => {
      const sandbox = await start({ expiresIn: HUGE_EXPIRES_IN, maxTokenAgeSeconds: HUGE_EXPIRES_IN });
      const dir = join(tmpDir, "huge-expires-in");
      const run = await runCli(
        [
          "contract",
          "--profile",
          "full",
          "--only",
          "token.issued,lifetime",
          "--auth-url",
          sandbox.authUrl,
          "--base-url",
          sandbox.baseUrl,
          "--client-id",
          DEMO_CLIENT.clientId,
          "--report-dir",
          dir,
        ],
        { EVENT_API_CLIENT_SECRET: DEMO_CLIENT.clientSecret },
        2 * LIMIT_MS,
      );
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).not.toContain("TimeoutOverflowWarning");
      expect(run.stdout).toMatch(/PASS +token\.issued /);
      for (const id of ["sliding", "idle-expires", "no-early-expiry", "renewal"]) {
        expect(run.stdout).toMatch(
          new RegExp(
            `ERROR +lifetime\\.${id} +MUST +could not decide: expires_in ${HUGE_EXPIRES_IN} s means waiting about .*, past its deadline of 3 h 0 min`,
          ),
        );
      }
      expect(run.stdout).not.toMatch(/^ {2}FAIL /m);
    },
    2 * LIMIT_MS,
  );
});

describe("a load plan longer than a run can be guarded", () => {
  it(
    "load idle-gap: refused before k6 starts, naming expires_in, exit 3",
    async ({ tmpDir }) => {
      // Its events endpoint answers (nested arrays), so the preflight finds the API there and the plan is judged.
      const { run } = await againstHostile(tmpDir, "nested-arrays", ["load", "idle-gap"], TIMEOUT_S, {
        tokens: { expiresIn: 2_200_000 },
      });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(
        /event-harness: with the target's expires_in of 2200000 s, idle-gap would run for up to .*; the harness runs k6 for at most /,
      );
      expect(run.stderr).not.toContain("TimeoutOverflowWarning");
      expect(run.stderr).not.toContain("was stopped");
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    },
    2 * LIMIT_MS,
  );
});

describe("the run's deadline", () => {
  it(
    "ends a full profile that needs longer: unfinished checks ERROR, exit 3, all reports written",
    async ({ tmpDir }) => {
      const dir = join(tmpDir, "run-timeout");
      // The embedded sandbox's expires_in of 5 s makes the sliding-expiry probes need about 7 s.
      const run = await runCli(["contract", "--profile", "full", "--run-timeout", "4", "--report-dir", dir]);
      expect(run.code, run.stderr).toBe(3);
      expect(run.ms).toBeLessThan(4_000 + MARGIN_MS);
      // The embedded sandbox's expires_in is known before any request: refused for it, however slow the start-up.
      expect(run.stdout).toMatch(
        /ERROR +lifetime\.sliding +MUST +could not decide: expires_in 5 s means waiting about 7\.0 s for this check: .*past its deadline of 4\.0 s \(--run-timeout\)/,
      );
      expect(run.stdout).not.toMatch(/^ {2}FAIL /m);
      for (const file of ["results.json", "junit.xml", "summary.md"])
        expect(existsSync(join(dir, file))).toBe(true);
    },
    2 * (4_000 + MARGIN_MS),
  );

  it(
    "refuses at once the sliding-expiry probes a fixed deadline cannot hold, naming expires_in",
    async ({ tmpDir }) => {
      const dir = join(tmpDir, "run-timeout-refused");
      // expires_in 60 s: each probe needs about 66 s plus its last exchanges, the run has 30.
      const run = await runCli(
        [
          "contract",
          "--profile",
          "full",
          "--only",
          "lifetime",
          "--sandbox-expires-in",
          "60",
          "--run-timeout",
          "30",
          "--report-dir",
          dir,
        ],
        {},
        2 * (30_000 + MARGIN_MS),
      );
      expect(run.code, run.stderr).toBe(3);
      for (const id of ["sliding", "idle-expires", "no-early-expiry", "renewal"]) {
        expect(run.stdout).toMatch(
          new RegExp(
            `ERROR +lifetime\\.${id} +MUST +could not decide: expires_in 60 s means waiting about 1 min 6 s for this check: ` +
              "the run would need .*, past its deadline of 30\\.0 s \\(--run-timeout\\)",
          ),
        );
      }
      expect(run.stdout).not.toContain("expired");
    },
    2 * (30_000 + MARGIN_MS),
  );
});
