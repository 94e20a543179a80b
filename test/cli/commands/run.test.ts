import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RunOutcome } from "../../../reporting/run/index.ts";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { everyFileText, expectNoSecret } from "../../support/report-texts.ts";
import { runCli } from "../../support/run-cli.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const RUN_LIMIT_MS = 120_000;
const CLI = fileURLToPath(new URL("../../../bin/event-harness.js", import.meta.url));

async function runJson(dir: string): Promise<RunOutcome> {
  return JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as RunOutcome;
}

/** The lines printed at the margin: the run's own; every part's output is indented under its heading. */
function marginLines(stdout: string): string[] {
  return stdout.split("\n").filter((line) => line !== "" && !line.startsWith("│ "));
}

describe("event-harness run against the embedded sandbox", () => {
  // The real process path: bin/event-harness.js through tsx, the streams and the exit code of a child process.
  it(
    "runs the selected parts in order, prints one verdict at the end and writes index.html, summary.md, run.json",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "selected");
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
      // No --report-dir: the run's own is taken, and a rerun writes a fresh one.
      expect(outcome.parts[0]?.command).toBe(
        "npx --no-install event-harness verify-rotation --expect-old refused --expect-old-tokens valid",
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
      for (const [file, text] of await everyFileText(dir))
        expectNoSecret(file, text, ["sandbox-demo-secret"]);
      expectNoSecret("stdout", run.stdout, ["sandbox-demo-secret"]);
      expectNoSecret("stderr", run.stderr, ["sandbox-demo-secret"]);
    },
    RUN_LIMIT_MS,
  );

  // A real SIGINT to a real process: the CLI's own signal handling is under test.
  it(
    "stops after the running part on Ctrl+C: the rest is skipped, the report still written, exit 3",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "interrupted");
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
});

describe("event-harness run against a named target", () => {
  const clientId = "run-test-client";
  const oldSecret = `run-old-${randomBytes(12).toString("hex")}`;

  /** A sandbox whose client's secret was rotated: the new secret, and the old one refused from now on. */
  async function rotated(
    sandbox: (options: { clients: { clientId: string; clientSecret: string }[] }) => Promise<RunningSandbox>,
  ) {
    const target = await sandbox({ clients: [{ clientId, clientSecret: oldSecret }] });
    const newSecret = (await target.rotateSecret(clientId)).clientSecret;
    /** The target flags; the secrets go through the environment, as a user should give them. */
    const args = ["--auth-url", target.authUrl, "--base-url", target.baseUrl, "--client-id", clientId];
    return { args, newSecret };
  }

  it(
    "runs only the contract suite unless --parts names more",
    async ({ tmpDir, sandbox }) => {
      const { args, newSecret } = await rotated(sandbox);
      const dir = path.join(tmpDir, "target-default");
      const run = await runCliInProcess(["run", "--profile", "fast", ...args, "--report-dir", dir], {
        EVENT_API_CLIENT_SECRET: newSecret,
      });
      expect(run.code, run.stderr).toBe(0);
      const outcome = await runJson(dir);
      expect(outcome.parts.map((part) => part.id)).toEqual(["contract"]);
      // run.json names the harness that ran: its version and the commit this checkout is at, as git says.
      const head = execFileSync("git", ["rev-parse", "HEAD"], {
        cwd: fileURLToPath(new URL("../../../", import.meta.url)),
      });
      expect(outcome.tool).toMatchObject({
        name: "event-api-harness",
        version: "0.1.0",
        commit: String(head).trim(),
      });
    },
    RUN_LIMIT_MS,
  );

  it(
    "fails the rotation part when reality differs from the expectation",
    async ({ tmpDir, sandbox }) => {
      const { args, newSecret } = await rotated(sandbox);
      const dir = path.join(tmpDir, "target-rotation-mismatch");
      const run = await runCliInProcess(
        ["run", "--parts", "rotation", "--expect-old", "accepted", ...args, "--report-dir", dir],
        { EVENT_API_CLIENT_SECRET: newSecret, EVENT_API_OLD_CLIENT_SECRET: oldSecret },
      );
      expect(run.code).toBe(1);
      expect(marginLines(run.stdout).at(-1)).toMatch(/^Verdict: FAILED/);
    },
    RUN_LIMIT_MS,
  );

  it(
    "hands --run-timeout to the contract part: a deadline shorter than the full profile makes it undecided",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "run-timeout");
      const run = await runCliInProcess([
        "run",
        "--parts",
        "contract",
        "--run-timeout",
        "4",
        "--report-dir",
        dir,
      ]);
      expect(run.code, run.stdout).toBe(3);
      const results = await readFile(path.join(dir, "contract", "results.json"), "utf8");
      // The sliding-expiry checks cannot fit 4 s: they are refused at once, naming the deadline they were given.
      expect(results).toContain("past its deadline of 4.0 s (--run-timeout)");
    },
    RUN_LIMIT_MS,
  );

  it(
    "is undecided (exit 3) when the target cannot be reached",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "unreachable");
      const run = await runCliInProcess(
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
      );
      expect(run.code, run.stdout).toBe(3);
      expect(marginLines(run.stdout).at(-1)).toMatch(
        /^Verdict: COULD NOT DECIDE \(could not test the target: see above\) — not run: contract · 0 of 1 part passed/,
      );
      // The reason is said once more at the log's end, where a CI log is read.
      expect(run.stdout).toMatch(/^Could not test the target: cannot reach the token endpoint /m);
      expect(await readFile(path.join(dir, "index.html"), "utf8")).toContain('data-verdict="undecided"');
    },
    RUN_LIMIT_MS,
  );
});

describe("event-harness run usage errors (exit 2, nothing runs)", () => {
  it.for([
    [["--parts", "contract,perf"], /--parts takes a comma-separated list of contract, load, rotation/],
    [["--profile", "slow"], /--profile takes one of fast, full/],
    [["--scenario", "marathon"], /--scenario takes NAME\[=DURATION\]/],
    [["--scenario", "sustained=ten"], /a duration is k6-style/],
    [["--scenario", "sustained", "--scenario", "sustained=5s"], /--scenario sustained is given twice/],
    [["--parts", "contract", "--scenario", "sustained"], /--scenario and --rate need the load part/],
    [["--threshold", "events_failed=mean<1"], /--threshold 'mean<1' is not a threshold expression/],
    [["--parts", "contract", "--threshold", "events_failed=rate<0.05"], /--threshold needs the load part/],
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
  ] as const)("%j", async ([args, message], { tmpDir }) => {
    const dir = path.join(tmpDir, "usage");
    const run = await runCliInProcess(["run", ...args, "--report-dir", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(existsSync(dir)).toBe(false);
  });

  it("refuses a report directory that already holds files, so two runs never mix", async ({ tmpDir }) => {
    const dir = path.join(tmpDir, "used");
    await mkdir(dir);
    await writeFile(path.join(dir, "index.html"), "old");
    const run = await runCliInProcess(["run", "--report-dir", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/exists and is not empty/);
  });

  it("--help explains the parts, the verdict and the exit codes", async () => {
    const run = await runCliInProcess(["run", "--help"]);
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
