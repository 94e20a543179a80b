import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { Command } from "../../../cli/command.ts";
import { parseCommandArgs } from "../../../cli/command.ts";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { verifyRotationCommand } from "../../../cli/commands/verify-rotation.ts";
import { planParts, reproduceCommand } from "../../../cli/run/part-plan.ts";
import type { RunSettings } from "../../../cli/run/run-settings.ts";
import { readSettings } from "../../../cli/run/run-settings.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const COMMANDS: Record<string, Command> = {
  contract: contractCommand as Command,
  load: loadCommand as Command,
  "verify-rotation": verifyRotationCommand as Command,
};

const settings: RunSettings = {
  started: new Date(0),
  runId: "r",
  runDir: path.resolve("reports", "run"),
  external: undefined,
  parts: ["contract", "load", "rotation"],
  profile: "full",
  scenarios: [{ name: "sustained", duration: "3s" }, { name: "idle-gap" }],
  loadPart: { rate: undefined },
  expectOld: undefined,
  expectOldTokens: undefined,
  faults: [],
  sandboxLatency: undefined,
  baselines: {},
  failOn: undefined,
  accepted: undefined,
};

/** The options the part's command parses from the line shown to repeat it: what it would really run with. */
function parsedFromShown(command: string): Record<string, unknown> {
  const [name = "", ...argv] = command
    .replace(/^npx --no-install event-harness /, "")
    .split(" ")
    .map((word) => word.replace(/^'(.*)'$/, "$1"));
  return parseCommandArgs(COMMANDS[name] as Command, argv).options;
}

describe("the line that repeats a part", () => {
  it("carries the ledger, the config file and its environment: run by hand, the part is judged as in the run", () => {
    const ledger = path.resolve("gate", "accepted.json");
    const config = { file: path.resolve("harness.json"), environment: "staging" };
    for (const plan of planParts({ ...settings, accepted: ledger })) {
      const shown = reproduceCommand(plan, undefined, config);
      const options = parsedFromShown(shown);
      expect(options.accepted, plan.id).toBe(path.join("gate", "accepted.json"));
      expect(options.config, plan.id).toBe("harness.json");
      expect(options.environment, plan.id).toBe("staging");
      expect(plan.options, plan.id).toMatchObject({ accepted: options.accepted });
    }
  });

  it("carries each load scenario's own baseline and --fail-on", () => {
    const plans = planParts({
      ...settings,
      baselines: {
        sustained: path.resolve("baselines", "sustained.json"),
        "idle-gap": path.resolve("baselines", "idle-gap.json"),
      },
      failOn: "inconclusive",
    });
    const shown = Object.fromEntries(
      plans
        .filter((p) => p.kind === "load")
        .map((p) => [p.id, parsedFromShown(reproduceCommand(p, undefined))]),
    );
    expect(shown["load-sustained"]).toMatchObject({
      baseline: path.join("baselines", "sustained.json"),
      "fail-on": "inconclusive",
    });
    expect(shown["load-idle-gap"]).toMatchObject({ baseline: path.join("baselines", "idle-gap.json") });
  });
});

/** `dir` made a run's report dir holding the baseline.json of each scenario given. */
async function runDir(dir: string, ...scenarios: string[]): Promise<string> {
  for (const scenario of scenarios) {
    await mkdir(path.join(dir, `load-${scenario}`));
    const record = loadRecord(1, steady(20), { settings: { scenario } });
    await writeFile(path.join(dir, `load-${scenario}`, "baseline.json"), JSON.stringify(record));
  }
  return dir;
}

const io = { signal: new AbortController().signal, stderr: new PassThrough() };
const twoScenarios = { parts: "load", scenario: ["sustained=3s", "idle-gap"] };

describe("run --baseline", () => {
  it("takes a baseline for each of several scenarios, from an earlier run's report dir", async ({
    tmpDir,
  }) => {
    const dir = await runDir(tmpDir, "sustained", "idle-gap");
    const read = await readSettings({ ...twoScenarios, baseline: [dir] }, {}, io);
    expect(read.baselines).toEqual({
      sustained: path.join(dir, "load-sustained", "baseline.json"),
      "idle-gap": path.join(dir, "load-idle-gap", "baseline.json"),
    });
  });

  it("takes them from EVENT_HARNESS_BASELINE too, and refuses a scenario without one before anything runs", async ({
    tmpDir,
  }) => {
    const dir = await runDir(tmpDir, "sustained");
    const fromEnv = await readSettings(
      { parts: "load", scenario: ["sustained=3s"] },
      { EVENT_HARNESS_BASELINE: dir },
      io,
    );
    expect(fromEnv.baselines.sustained).toBe(path.join(dir, "load-sustained", "baseline.json"));
    await expect(readSettings({ ...twoScenarios, baseline: [dir] }, {}, io)).rejects.toThrow(
      /no baseline for scenario idle-gap among .*load-sustained\/baseline\.json/,
    );
    // A baseline kept in the environment of a CI job does not stop a run without load from running.
    const contractOnly = await readSettings({ parts: "contract" }, { EVENT_HARNESS_BASELINE: dir }, io);
    expect(contractOnly.baselines).toEqual({});
    await expect(readSettings({ parts: "contract", baseline: [dir] }, {}, io)).rejects.toThrow(
      /--baseline needs the load part/,
    );
  });
});

/** The words a POSIX shell reads from a printed command line: the shell itself is the oracle, not our quoting. */
function shellWords(command: string): string[] {
  const out = execFileSync("sh", ["-c", 'eval "set -- $1"; printf "%s\\0" "$@"', "sh", command], {
    encoding: "utf8",
  });
  return out.split("\0").slice(0, -1);
}

/** The argv a printed `npx --no-install event-harness …` line hands the CLI. */
function cliArgv(command: string): string[] {
  const words = shellWords(command);
  expect(words.slice(0, 3)).toEqual(["npx", "--no-install", "event-harness"]);
  return words.slice(3);
}

const LIMIT_MS = 120_000;

/**
 * Runs `work` with `dir` as the working directory, as a user who pastes the line there: a rerun writes its reports
 * under it. The directory is restored after, pass or fail (the unit project's workers run file after file).
 */
async function inDirectory<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return await work();
  } finally {
    process.chdir(before);
  }
}

describe("the printed lines that repeat a failure, run as printed", () => {
  it(
    "repeat each part of a run, again and again, with the same verdict",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "run");
      const run = await runCliInProcess([
        "run",
        "--parts",
        "contract",
        "--profile",
        "fast",
        "--sandbox-fault",
        "bearer-alg-none",
        "--report-dir",
        dir,
      ]);
      expect(run.code, run.stdout).toBe(1);
      const json = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8"));
      const argv = cliArgv(json.parts[0].command);
      // Twice: a rerun writes reports of its own, so the line works however often it is pasted.
      for (const attempt of [1, 2]) {
        const again = await inDirectory(tmpDir, () => runCliInProcess(argv));
        expect(again.code, `${attempt}: ${again.stderr}`).toBe(1);
        expect(again.stdout).toMatch(/^Verdict: FAILED — 1 FAIL \(bearer\.alg-none\)/m);
      }
    },
    LIMIT_MS,
  );

  it(
    "repeat a part against a named target with the settings the run was given as flags",
    async ({ tmpDir, sandbox, targetEnv }) => {
      const target = await sandbox([]);
      const env = targetEnv(target);
      const config = path.join(tmpDir, "harness.json");
      await writeFile(config, JSON.stringify({ environments: { local: { profile: "fast" } } }));
      const flags = ["--audience", "none", "--timeout", "7", "--channel-id", "chl-reproduce"];
      const dir = path.join(tmpDir, "named");
      const run = await runCliInProcess(
        ["run", "--parts", "contract", "--config", config, "-e", "local", ...flags, "--report-dir", dir],
        env,
      );
      expect(run.code, run.stdout).toBe(0);
      const json = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8"));
      const argv = cliArgv(json.parts[0].command);
      // Where the run ran: the same environment, which holds the secret the line leaves out.
      const again = await inDirectory(tmpDir, () =>
        runCliInProcess(argv, { EVENT_API_CLIENT_SECRET: env.EVENT_API_CLIENT_SECRET }),
      );
      expect(again.code, again.stderr).toBe(0);
      const reports = path.resolve(tmpDir, /^Reports: (\S+)\/results\.json,/m.exec(again.stdout)?.[1] ?? "");
      const first = JSON.parse(await readFile(path.join(dir, "contract", "results.json"), "utf8"));
      const second = JSON.parse(await readFile(path.join(reports, "results.json"), "utf8"));
      expect(second.target).toEqual(first.target);
      expect(first.target.audience).toBeUndefined();
      expect(first.suite).toBe(second.suite);
    },
    LIMIT_MS,
  );

  it(
    "replay a property-based check's counterexample against the same sandbox fault",
    async ({ tmpDir }) => {
      const dir = path.join(tmpDir, "found");
      const found = await runCliInProcess([
        "contract",
        "--only",
        "inputs.valid-accepted",
        "--sandbox-fault",
        "events-5xx-quote-reference",
        "--report-dir",
        dir,
      ]);
      expect(found.code, found.stdout).toBe(1);
      const summary = await readFile(path.join(dir, "summary.md"), "utf8");
      const replay = /^Replay: `([^`]+)`$/m.exec(summary)?.[1] ?? "";
      expect(replay).not.toBe("");
      const junit = await readFile(path.join(dir, "junit.xml"), "utf8");
      expect(junit).toContain(`Replay: ${replay}`);
      const again = await inDirectory(tmpDir, () => runCliInProcess(cliArgv(replay)));
      expect(again.code, again.stdout).toBe(1);
      // The same minimal input fails again: the replay reached the faulty sandbox, not a correct one.
      // Each run draws references of its own (same length): the rest of the input is the same. A message quotes an
      // input of over 300 characters cut, with its length ("{…… (338 chars)"): a coverage boundary often is one.
      const input = (text: string) =>
        /minimal input \([^)]*\): (.*?); replay with/.exec(text)?.[1]?.replace(/eah-fz-\w+-v\w+/, "REF");
      expect(input(again.stdout), again.stdout).toBeDefined();
      expect(input(again.stdout)).toBe(input(found.stdout));
    },
    LIMIT_MS,
  );
});
