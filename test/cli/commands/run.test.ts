import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunOutcome } from "../../../reporting/run/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { runCli } from "../../support/run-cli.ts";

const RUN_LIMIT_MS = 120_000;
const CLI = fileURLToPath(new URL("../../../bin/event-harness.js", import.meta.url));
/** k6 is needed for the load part; CI builds it before the tests (.ci/run). */
const K6 = [process.env.K6_BIN, path.resolve(".tools/bin/k6")].find((file) => file && existsSync(file));
/** Every part, with a short load: with k6 the load part joins in, so its reports and the k6 dashboard are searched too. */
const EVERY_PART =
  K6 === undefined
    ? ["--parts", "contract,rotation"]
    : ["--parts", "contract,load,rotation", "--scenario", "sustained=3s"];

let reports: string;
beforeAll(async () => {
  reports = await mkdtemp(path.join(tmpdir(), "eah-run-"));
});
afterAll(async () => {
  await rm(reports, { recursive: true, force: true });
});

async function runJson(dir: string): Promise<RunOutcome> {
  return JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as RunOutcome;
}

/** Every file under `dir`, as text; the k6 dashboard's gzipped data is unpacked so nothing hides in it. */
async function everyFile(dir: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const raw = await readFile(file);
    const text = raw.toString("utf8");
    out.push([file, text]);
    if (file.endsWith(".gz")) out.push([`${file} (unpacked)`, gunzipSync(raw).toString("utf8")]);
    const data = /<script[^>]*id="data"[^>]*>([\s\S]*?)<\/script>/.exec(text)?.[1];
    if (data) out.push([`${file} (data)`, gunzipSync(Buffer.from(data.trim(), "base64")).toString("utf8")]);
  }
  return out;
}

const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

function expectNoSecret(where: string, text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    expect(text.includes(secret), `${where} holds a secret`).toBe(false);
    expect(text.includes(encodeURIComponent(secret)), `${where} holds a secret, URL-encoded`).toBe(false);
  }
  expect(JWT.exec(text)?.[0], `${where} holds an access token`).toBeUndefined();
}

/** The lines printed at the margin: the run's own; every part's output is indented under its heading. */
function marginLines(stdout: string): string[] {
  return stdout.split("\n").filter((line) => line !== "" && !line.startsWith("│ "));
}

describe("event-harness run against the embedded sandbox", () => {
  it(
    "runs the selected parts in order, prints one verdict at the end and writes index.html, summary.md, run.json",
    async () => {
      const dir = path.join(reports, "selected");
      const run = await runCli(
        ["run", "--parts", "rotation,contract", "--profile", "fast", "--report-dir", dir],
        {},
        RUN_LIMIT_MS,
      );
      expect(run.code, run.stderr).toBe(0);
      const margin = marginLines(run.stdout);
      expect(margin.filter((line) => line.startsWith("Verdict:"))).toEqual([margin.at(-1)]);
      // The run's time as formatDuration writes it: a fast machine finishes both parts within a second.
      expect(margin.at(-1)).toMatch(
        /^Verdict: PASSED — 2 of 2 parts passed \((\d+ ms|\d+\.\d s|\d+ min \d+ s), embedded sandbox — not your API\)$/,
      );
      // The old tokens are checked first, before the other parts give them time to expire.
      expect(run.stdout.indexOf("[1/2] Credential rotation")).toBeLessThan(
        run.stdout.indexOf("[2/2] Contract suite (fast profile)"),
      );
      expect(run.stdout).toContain("│ Verdict: PASSED");
      const outcome = await runJson(dir);
      expect(outcome.verdict).toBe("passed");
      expect(outcome.parts.map((part) => [part.id, part.verdict, part.exitCode])).toEqual([
        ["rotation", "passed", 0],
        ["contract", "passed", 0],
      ]);
      expect(outcome.parts[0]?.command).toBe(
        `npx --no-install event-harness verify-rotation --expect-old refused --expect-old-tokens valid --report-dir ${path.join(dir, "rotation")}`,
      );
      const files = (await readdir(dir, { recursive: true })).sort();
      for (const file of [
        "index.html",
        "summary.md",
        "run.json",
        "contract/results.json",
        "contract/junit.xml",
        "rotation/results.json",
      ]) {
        expect(files).toContain(file);
      }
      expect(await readFile(path.join(dir, "summary.md"), "utf8")).toMatch(
        /^## ✅ Passed — 2 of 2 parts passed/,
      );
      const html = await readFile(path.join(dir, "index.html"), "utf8");
      expect(html).toContain('data-verdict="passed"');
      expect(html).toContain('id="check-rotation.old-tokens"');
      for (const [file, text] of await everyFile(dir)) expectNoSecret(file, text, ["sandbox-demo-secret"]);
      expectNoSecret("stdout", run.stdout, ["sandbox-demo-secret"]);
      expectNoSecret("stderr", run.stderr, ["sandbox-demo-secret"]);
    },
    RUN_LIMIT_MS,
  );

  it(
    "keeps going after a part fails and ends with FAILED, exit 1",
    async () => {
      const dir = path.join(reports, "failing");
      const run = await runCli(
        ["run", ...EVERY_PART, "--profile", "fast", "--sandbox-fault", "events-5xx", "--report-dir", dir],
        {},
        RUN_LIMIT_MS,
      );
      expect(run.code, run.stderr).toBe(1);
      // events-5xx fails the contract's events.accepted and, with k6, the load part's error-rate threshold.
      const verdicts = K6 === undefined ? ["passed", "failed"] : ["passed", "failed", "failed"];
      expect(marginLines(run.stdout).at(-1)).toMatch(
        new RegExp(`^Verdict: FAILED — 1 of ${verdicts.length} parts passed`),
      );
      expect((await runJson(dir)).parts.map((part) => part.verdict)).toEqual(verdicts);
      const summary = await readFile(path.join(dir, "summary.md"), "utf8");
      expect(summary).toMatch(/^## ❌ Failed/);
      expect(summary).toContain("- ❌ **contract** `events.accepted`:");
    },
    RUN_LIMIT_MS,
  );

  it(
    "stops after the running part on Ctrl+C: the rest is skipped, the report still written, exit 3",
    async () => {
      const dir = path.join(reports, "interrupted");
      const child = spawn(
        process.execPath,
        [CLI, "run", "--parts", "contract,rotation", "--profile", "fast", "--report-dir", dir],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        stdout += data;
        if (data.includes("[1/2] Credential rotation")) child.kill("SIGINT");
      });
      child.stderr.resume();
      const limit = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(limit);
      expect(code, stdout).toBe(3);
      const outcome = await runJson(dir);
      expect(outcome.parts.map((part) => part.verdict).at(-1)).toBe("skipped");
      expect(outcome.parts.at(-1)?.note).toBe("not run: the run was interrupted");
      // ABORTED in every output of the run: console, run.json, summary.md and index.html; the part it stopped too.
      expect(marginLines(stdout).at(-1)).toMatch(/^Verdict: ABORTED \(interrupted \(received SIGINT\)\)/);
      expect(outcome.verdict).toBe("aborted");
      expect(outcome.parts[0]?.verdict).toBe("aborted");
      expect(await readFile(path.join(dir, "summary.md"), "utf8")).toMatch(/^## ⏹️ Aborted/);
      expect(await readFile(path.join(dir, "index.html"), "utf8")).toContain('data-verdict="aborted"');
    },
    RUN_LIMIT_MS,
  );

  it.skipIf(K6 === undefined)(
    "runs the load part with k6 and draws its charts from the per-second series",
    async () => {
      const dir = path.join(reports, "load");
      const run = await runCli(
        ["run", "--parts", "load", "--scenario", "sustained=4s", "--report-dir", dir],
        {},
        RUN_LIMIT_MS,
      );
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const files = await readdir(path.join(dir, "load-sustained"));
      expect(files).toEqual(
        expect.arrayContaining(["summary.json", "junit.xml", "dashboard.html", "timeseries.json"]),
      );
      expect(files.filter((name) => name.startsWith("metrics.csv"))).toEqual([]);
      const series = JSON.parse(
        await readFile(path.join(dir, "load-sustained", "timeseries.json"), "utf8"),
      ) as {
        length: number;
        counts: Record<string, number[]>;
      };
      expect(series.length).toBeGreaterThanOrEqual(4);
      expect((series.counts["events.accepted"] ?? []).reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
      const html = await readFile(path.join(dir, "index.html"), "utf8");
      expect(html).toContain('id="load-sustained-throughput"');
      expect(html).toContain('href="load-sustained/dashboard.html"');
      for (const [file, text] of await everyFile(dir)) expectNoSecret(file, text, ["sandbox-demo-secret"]);
    },
    RUN_LIMIT_MS,
  );
});

describe("event-harness run against a named target", () => {
  let sandbox: RunningSandbox;
  const clientId = "run-test-client";
  const oldSecret = `run-old-${randomBytes(12).toString("hex")}`;
  let newSecret: string;
  let oldToken: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, clients: [{ clientId, clientSecret: oldSecret }] });
    oldToken = await sandbox.issueToken(clientId);
    newSecret = (await sandbox.rotateSecret(clientId)).clientSecret;
  });
  afterAll(async () => {
    await sandbox.close();
  });
  /** The target flags; the secrets go through the environment, as a user should give them. */
  const target = () => [
    "--auth-url",
    sandbox.authUrl,
    "--base-url",
    sandbox.baseUrl,
    "--client-id",
    clientId,
  ];

  it(
    "runs only the contract suite unless --parts names more",
    async () => {
      const dir = path.join(reports, "target-default");
      const run = await runCli(
        ["run", "--profile", "fast", ...target(), "--report-dir", dir],
        { EVENT_API_CLIENT_SECRET: newSecret },
        RUN_LIMIT_MS,
      );
      expect(run.code, run.stderr).toBe(0);
      expect((await runJson(dir)).parts.map((part) => part.id)).toEqual(["contract"]);
    },
    RUN_LIMIT_MS,
  );

  it(
    "checks the rotation with the user's expectations and leaves no secret or token in any output or file",
    async () => {
      const dir = path.join(reports, "target-rotation");
      const run = await runCli(
        [
          "run",
          ...EVERY_PART,
          "--profile",
          "fast",
          "--expect-old",
          "refused",
          "--expect-old-tokens",
          "valid",
          ...target(),
          "--report-dir",
          dir,
        ],
        {
          EVENT_API_CLIENT_SECRET: newSecret,
          EVENT_API_OLD_CLIENT_SECRET: oldSecret,
          EVENT_API_OLD_ACCESS_TOKEN: oldToken,
        },
        RUN_LIMIT_MS,
      );
      expect(run.code, run.stderr).toBe(0);
      const outcome = await runJson(dir);
      expect(outcome.target).toEqual({
        embedded: false,
        tokenUrl: `${sandbox.authUrl}/oauth/token`,
        baseUrl: sandbox.baseUrl,
        clientAuth: "post",
        insecure: false,
      });
      expect(outcome.parts[0]?.command).toMatch(
        // Runnable as printed where the run ran: the secrets stay in the environment, no placeholder overrides them.
        /^npx --no-install event-harness verify-rotation --expect-old refused --expect-old-tokens valid --report-dir .* --token-url http\S+\/auth\/oauth\/token --base-url/,
      );
      const results = await readFile(path.join(dir, "rotation", "results.json"), "utf8");
      expect(results).toMatch(/"id": "rotation.old-secret",[\s\S]*?"status": "PASS"/);
      const secrets = [oldSecret, newSecret, oldToken];
      for (const [file, text] of await everyFile(dir)) expectNoSecret(file, text, secrets);
      expectNoSecret("stdout", run.stdout, secrets);
      expectNoSecret("stderr", run.stderr, secrets);
    },
    RUN_LIMIT_MS,
  );

  it(
    "fails the rotation part when reality differs from the expectation",
    async () => {
      const dir = path.join(reports, "target-rotation-mismatch");
      const run = await runCli(
        ["run", "--parts", "rotation", "--expect-old", "accepted", ...target(), "--report-dir", dir],
        { EVENT_API_CLIENT_SECRET: newSecret, EVENT_API_OLD_CLIENT_SECRET: oldSecret },
        RUN_LIMIT_MS,
      );
      expect(run.code).toBe(1);
      expect(marginLines(run.stdout).at(-1)).toMatch(/^Verdict: FAILED/);
    },
    RUN_LIMIT_MS,
  );

  it(
    "hands --run-timeout to the contract part: a deadline shorter than the full profile makes it undecided",
    async () => {
      const dir = path.join(reports, "run-timeout");
      const run = await runCli(
        ["run", "--parts", "contract", "--run-timeout", "4", "--report-dir", dir],
        {},
        RUN_LIMIT_MS,
      );
      expect(run.code, run.stdout).toBe(3);
      const results = await readFile(path.join(dir, "contract", "results.json"), "utf8");
      // The sliding-expiry checks cannot fit 4 s: they are refused at once, naming the deadline they were given.
      expect(results).toContain("past its deadline of 4.0 s (--run-timeout)");
    },
    RUN_LIMIT_MS,
  );

  it(
    "is undecided (exit 3) when the target cannot be reached",
    async () => {
      const dir = path.join(reports, "unreachable");
      const run = await runCli(
        [
          "run",
          "--profile",
          "fast",
          "--auth-url",
          "http://127.0.0.1:9/auth",
          "--base-url",
          "http://127.0.0.1:9/api",
          "--client-id",
          "x",
          "--timeout",
          "2",
          "--report-dir",
          dir,
        ],
        { EVENT_API_CLIENT_SECRET: "unreachable-secret" },
        RUN_LIMIT_MS,
      );
      expect(run.code, run.stdout).toBe(3);
      expect(marginLines(run.stdout).at(-1)).toMatch(
        /^Verdict: COULD NOT DECIDE \(could not test the target: see above\) — 0 of 1 part passed/,
      );
      expect(await readFile(path.join(dir, "index.html"), "utf8")).toContain('data-verdict="undecided"');
    },
    RUN_LIMIT_MS,
  );
});

describe("event-harness run usage errors (exit 2, nothing runs)", () => {
  it.each([
    [["--parts", "contract,perf"], /--parts takes a comma-separated list of contract, load, rotation/],
    [["--profile", "slow"], /--profile takes one of fast, full/],
    [["--scenario", "marathon"], /--scenario takes NAME\[=DURATION\]/],
    [["--scenario", "sustained=ten"], /a duration is k6-style/],
    [["--scenario", "sustained", "--scenario", "sustained=5s"], /--scenario sustained is given twice/],
    [["--parts", "contract", "--scenario", "sustained"], /--scenario and --rate need the load part/],
    [["--expect-old", "refused"], /apply to a target/],
    [
      ["--sandbox-fault", "no-such-fault"],
      /unknown --sandbox-fault 'no-such-fault' \(one of: token-any-grant-type, /,
    ],
    [["--auth-url", "http://127.0.0.1:9/auth"], /an external target needs/],
    [
      [
        "--parts",
        "rotation",
        "--expect-old-tokens",
        "valid",
        ...["--auth-url", "http://127.0.0.1:9/auth", "--base-url", "http://127.0.0.1:9/api"],
        ...["--client-id", "x", "--client-secret", "new-secret-7a8b"],
      ],
      /--expect-old-tokens valid needs a token obtained before the rotation \(EVENT_API_OLD_ACCESS_TOKEN\)/,
    ],
    [["--run-timeout", "0"], /--run-timeout takes a number from 1 to/],
  ])("%j", async (args, message) => {
    const dir = path.join(reports, `usage-${randomBytes(4).toString("hex")}`);
    const run = await runCli(["run", ...args, "--report-dir", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(existsSync(dir)).toBe(false);
  });

  it("refuses a report directory that already holds files, so two runs never mix", async () => {
    const dir = await mkdtemp(path.join(reports, "used-"));
    await writeFile(path.join(dir, "index.html"), "old");
    const run = await runCli(["run", "--report-dir", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/exists and is not empty/);
  });

  it("--help explains the parts, the verdict and the exit codes", async () => {
    const run = await runCli(["run", "--help"]);
    expect(run.code).toBe(0);
    for (const text of [
      "--parts LIST",
      "--scenario NAME[=D]",
      "index.html",
      "summary.md",
      "0 passed, 1 failed",
    ]) {
      expect(run.stdout).toContain(text);
    }
  });
});
