import { mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
};

beforeAll(async () => {
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

/** `dir`: the test's tmpDir holding sustained.json, the baseline of a sustained run at 50/s. */
const it = test.extend("dir", async ({ tmpDir }) => {
  // A run at 40/s is refused by it, naming the rate, before any load.
  await writeFile(path.join(tmpDir, "sustained.json"), JSON.stringify(loadRecord(1, steady(20))));
  return tmpDir;
});

const RUN = ["sustained", "--rate", "40", "--duration", "3s"];

async function load(dir: string, args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const reportDir = await mkdtemp(path.join(dir, "report-"));
  return runInProcess(loadCommand, [...args, "--report-dir", reportDir], { ...env, ...extraEnv });
}

describe("where load finds its baseline", () => {
  it("reads EVENT_HARNESS_BASELINE when --baseline is not given", async ({ dir }) => {
    const run = await load(dir, RUN, { EVENT_HARNESS_BASELINE: path.join(dir, "sustained.json") });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("cannot compare runs with different load settings (rate 50 → 40");
    expect(run.stdout).not.toContain("THRESHOLDS");
  });

  it("reads the config file's baseline, relative to the file", async ({ dir }) => {
    const config = path.join(dir, "harness.json");
    await writeFile(config, JSON.stringify({ environments: { ci: { baseline: "sustained.json" } } }));
    const run = await load(dir, [...RUN, "--config", config]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("cannot compare runs with different load settings (rate 50 → 40");
  });

  it("leaves a baseline from the environment to load-merge's compare when writing a k6-operator run", async ({
    dir,
  }) => {
    const out = await mkdtemp(path.join(dir, "operator-"));
    const target = ["--auth-url", "https://auth.example.com", "--base-url", "https://api.example.com"];
    const run = await runInProcess(
      loadCommand,
      ["sustained", ...target, "--client-id", "ci", "--k6-operator", out],
      {
        ...env,
        EVENT_API_CLIENT_SECRET: "operator-test-secret",
        EVENT_HARNESS_BASELINE: path.join(dir, "sustained.json"),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const refused = await runInProcess(
      loadCommand,
      [
        "sustained",
        ...target,
        "--client-id",
        "ci",
        "--k6-operator",
        out,
        "--baseline",
        path.join(dir, "sustained.json"),
      ],
      { ...env, EVENT_API_CLIENT_SECRET: "operator-test-secret" },
    );
    expect(refused.code).toBe(2);
  });

  it("lets --baseline override both", async ({ dir }) => {
    const other = path.join(dir, "other.json");
    await writeFile(other, JSON.stringify(loadRecord(2, steady(20), { settings: { rate: 45 } })));
    const run = await load(dir, [...RUN, "--baseline", other], {
      EVENT_HARNESS_BASELINE: path.join(dir, "sustained.json"),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("(rate 45 → 40");
  });
});
