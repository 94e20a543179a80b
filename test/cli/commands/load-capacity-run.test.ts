import { readFile } from "node:fs/promises";
import path from "node:path";
import { QUICK_SEARCH } from "../../support/capacity-runs.ts";
import { describe, expect } from "../../support/fixtures.ts";
import { beforeAllK6, loadTest as it } from "../../support/load-runs.ts";
import { runCliInProcess, toolEnv } from "../../support/run-in-process.ts";

beforeAllK6();

describe("run with a capacity load part, as the Action runs it", () => {
  it("passes the thresholds to the part, and its report shows the capacity with its charts and steps", async ({
    loads,
    sandbox,
    tmpDir,
  }) => {
    const credential = loads.client("run-capacity");
    const api = await sandbox({ expiresIn: 5, clients: [credential], throughputLimit: 60 });
    const dir = path.join(tmpDir, "run");
    const thresholds = QUICK_SEARCH.filter((_, i) => i < 4);
    const search = QUICK_SEARCH.filter((_, i) => i >= 4);
    expect(search).toEqual(["--step-warm-up", "2s", "--step-duration", "4s"]);
    const run = await runCliInProcess(
      [
        "run",
        "--parts",
        "load",
        "--scenario",
        "capacity=2m",
        "--rate",
        "30",
        ...thresholds,
        "--auth-url",
        api.authUrl,
        "--base-url",
        api.baseUrl,
        "--client-id",
        credential.clientId,
        "--report-dir",
        dir,
        "--quiet",
      ],
      { ...toolEnv(), EVENT_API_CLIENT_SECRET: credential.clientSecret },
    );
    loads.outputs.push(run.stdout, run.stderr);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const html = await readFile(path.join(dir, "index.html"), "utf8");
    expect(html).toMatch(/capacity \d+ events\/s · \d+\/s broke/);
    expect(html).toContain('id="load-capacity-latency"');
    expect(html).toContain('id="load-capacity-failures"');
    expect(html).toContain("p90 objective &lt; 300 ms");
    const summary = await readFile(path.join(dir, "summary.md"), "utf8");
    expect(summary).toMatch(/\| Load: capacity \(2m\) \| capacity \d+ events\/s, \d+\/s broke, \d+ steps \|/);
    // The run's verdict line names what gated the part: its capacity and what broke the next rate.
    expect(summary).toMatch(
      /^\*\*PASSED — 1 of 1 parts passed · load-capacity: capacity \d+ events\/s \(\d+\/s broke /m,
    );
    for (const output of [run.stdout, run.stderr, html, summary])
      expect(output).not.toContain(credential.clientSecret);
  }, 300_000);
});
