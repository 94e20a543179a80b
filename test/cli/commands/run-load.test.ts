import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { RunOutcome } from "../../../reporting/run/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { everyFileText, expectNoSecret } from "../../support/report-texts.ts";
import { runCli } from "../../support/run-cli.ts";
import { runCliInProcess, toolEnv } from "../../support/run-in-process.ts";

const RUN_LIMIT_MS = 120_000;
/** k6 is needed for the load part; CI builds it before the tests (.ci/run). */
const K6 = [process.env.K6_BIN, path.resolve(".tools/bin/k6")].find((file) => file && existsSync(file));
/** Every part, with a short load: with k6 the load part joins in, so its reports and the k6 dashboard are searched too. */
const EVERY_PART =
  K6 === undefined
    ? ["--parts", "contract,rotation"]
    : ["--parts", "contract,load,rotation", "--scenario", "sustained=3s"];

async function runJson(dir: string): Promise<RunOutcome> {
  return JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as RunOutcome;
}

/** The lines printed at the margin: the run's own; every part's output is indented under its heading. */
function marginLines(stdout: string): string[] {
  return stdout.split("\n").filter((line) => line !== "" && !line.startsWith("│ "));
}

describe("event-harness run with its load part", () => {
  it(
    "keeps going after a part fails and ends with FAILED, exit 1",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "failing");
      const run = await runCliInProcess(
        ["run", ...EVERY_PART, "--profile", "fast", "--sandbox-fault", "events-5xx", "--report-dir", dir],
        toolEnv(),
      );
      expect(run.code, run.stderr).toBe(1);
      // events-5xx fails the contract's events.accepted and, with k6, the load part's error-rate threshold.
      const verdicts = K6 === undefined ? ["passed", "failed"] : ["passed", "failed", "failed"];
      // The last line names each failed part and what failed in it before what passed.
      expect(marginLines(run.stdout).at(-1)).toMatch(
        new RegExp(
          `^Verdict: FAILED — contract: \\d+ FAIL \\([^)]+\\), .*1 of ${verdicts.length} parts passed`,
        ),
      );
      expect((await runJson(dir)).parts.map((part) => part.verdict)).toEqual(verdicts);
      const summary = await readFile(path.join(dir, "summary.md"), "utf8");
      expect(summary).toMatch(/^## ❌ Failed/);
      expect(summary).toContain("- ❌ **contract** `events.accepted`:");
    },
    RUN_LIMIT_MS,
  );

  it.skipIf(K6 === undefined)(
    "runs the load part with k6 and draws its charts from the per-second series",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "load");
      const run = await runCliInProcess(
        ["run", "--parts", "load", "--scenario", "sustained=4s", "--report-dir", dir],
        toolEnv(),
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
      for (const [file, text] of await everyFileText(dir))
        expectNoSecret(file, text, ["sandbox-demo-secret"]);
    },
    RUN_LIMIT_MS,
  );

  // A child process, so whatever any part of the harness (k6 included) writes anywhere is searched too.
  it(
    "checks the rotation of a named target with the user's expectations and leaves no secret or token in any output or file",
    async ({ tmpDir, sandbox }) => {
      const clientId = "run-test-client";
      const oldSecret = `run-old-${randomBytes(12).toString("hex")}`;
      const target = await sandbox({ clients: [{ clientId, clientSecret: oldSecret }] });
      const oldToken = await target.issueToken(clientId);
      const newSecret = (await target.rotateSecret(clientId)).clientSecret;
      const dir = path.join(tmpDir, "target-rotation");
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
          ...["--auth-url", target.authUrl, "--base-url", target.baseUrl, "--client-id", clientId],
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
        tokenUrl: `${target.authUrl}/oauth/token`,
        baseUrl: target.baseUrl,
        clientAuth: "post",
        insecure: false,
      });
      expect(outcome.parts[0]?.command).toMatch(
        // Runnable as printed where the run ran: the secrets stay in the environment, no placeholder overrides them.
        /^npx --no-install event-harness verify-rotation --expect-old refused --expect-old-tokens valid --token-url http\S+\/auth\/oauth\/token --base-url/,
      );
      const results = await readFile(path.join(dir, "rotation", "results.json"), "utf8");
      expect(results).toMatch(/"id": "rotation.old-secret",[\s\S]*?"status": "PASS"/);
      const secrets = [oldSecret, newSecret, oldToken];
      for (const [file, text] of await everyFileText(dir)) expectNoSecret(file, text, secrets);
      expectNoSecret("stdout", run.stdout, secrets);
      expectNoSecret("stderr", run.stderr, secrets);
    },
    RUN_LIMIT_MS,
  );
});
