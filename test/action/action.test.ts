import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parse } from "yaml";
import { test as base, describe, expect, it } from "../support/fixtures.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUN_SH = join(ROOT, "action", "run.sh");

interface ActionYaml {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: {
    using: string;
    steps: Array<{ id?: string; uses?: string; run?: string; env?: Record<string, string>; if?: string }>;
  };
}

const text = await readFile(join(ROOT, "action.yml"), "utf8");
const action = parse(text) as ActionYaml;
const runSh = await readFile(RUN_SH, "utf8");
const SECRET_INPUTS = ["client-secret", "old-client-secret", "old-access-token"];

function expressions(value: unknown): string[] {
  return JSON.stringify(value).match(/\$\{\{[^}]*\}\}/g) ?? [];
}

describe("action.yml: structure", () => {
  it("is a composite action whose every input is used and every used input declared", () => {
    expect(action.runs.using).toBe("composite");
    const used = new Set(
      expressions(action.runs).flatMap((expression) =>
        [...expression.matchAll(/inputs\.([a-z0-9-]+)/g)].map((match) => match[1]),
      ),
    );
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it("takes inputs into shell only through env, never expanded inside a script", () => {
    for (const step of action.runs.steps) {
      if (step.run !== undefined) expect(expressions(step.run), step.run).toEqual([]);
    }
    for (const name of SECRET_INPUTS) {
      const places = action.runs.steps.filter((step) => JSON.stringify(step).includes(`inputs.${name}`));
      expect(places.map((step) => step.id)).toEqual(["run"]);
      const run = places[0];
      expect(Object.values(run?.env ?? {})).toContain(`\${{ inputs.${name} }}`);
    }
  });

  it("hands every HARNESS_* variable of the run step to run.sh, and run.sh reads no other", () => {
    const run = action.runs.steps.find((step) => step.id === "run");
    const given = Object.keys(run?.env ?? {}).sort();
    const loop = [...runSh.matchAll(/for name in ([A-Z_ \\\n]+); do/g)].flatMap((match) =>
      (match[1] ?? "").split(/[\s\\]+/).filter(Boolean),
    );
    expect(loop.length).toBeGreaterThan(10);
    const read = new Set([
      ...loop.map((name) => `HARNESS_${name}`),
      ...[...runSh.matchAll(/\$\{(HARNESS_[A-Z0-9_]+)/g)].map((match) => match[1] as string),
    ]);
    expect([...read].sort()).toEqual(given);
  });

  it("wires the outputs verdict, report-path and exit-code to what run.sh writes", () => {
    expect(Object.keys(action.outputs).sort()).toEqual(["exit-code", "report-path", "verdict"]);
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value).toBe(`\${{ steps.run.outputs.${name} }}`);
      expect(runSh).toContain(`output ${name} `);
    }
  });

  it("pins every action it uses to a full commit id, its version named in a comment", () => {
    const uses = action.runs.steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses]));
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) {
      expect(use).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
      expect(text).toMatch(new RegExp(`uses: ${use.replace("/", "\\/")} # v\\d+\\.\\d+\\.\\d+\\n`));
    }
  });
});

/**
 * GITHUB_OUTPUT read as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks ending at a line that is
 * the delimiter; a name set twice keeps its last value.
 */
function githubOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = file.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (line === "") continue;
    const heredoc = /^([^=]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const end = lines.indexOf(heredoc[2] as string, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: ${heredoc[1]} has no closing delimiter`);
      outputs[heredoc[1] as string] = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const at = line.indexOf("=");
    if (at < 0) throw new Error(`GITHUB_OUTPUT: a line that sets nothing: ${line}`);
    outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}

describe("action/run.sh against the embedded sandbox", () => {
  /** A job's working directory, with the empty files GitHub gives a step for its outputs and its summary. */
  const it = base.extend("jobDir", async ({ tmpDir }) => {
    await writeFile(join(tmpDir, "output"), "");
    await writeFile(join(tmpDir, "summary"), "");
    return tmpDir;
  });

  const SECRET = "act10n-Secret-Value";

  async function runAction(dir: string, inputs: Record<string, string>) {
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? dir,
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_OUTPUT: join(dir, "output"),
      GITHUB_STEP_SUMMARY: join(dir, "summary"),
      RUNNER_TEMP: dir,
      ...inputs,
    };
    const result = await promisify(execFile)("bash", [RUN_SH], { cwd: dir, env, timeout: 60_000 }).then(
      (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    const outputFile = await readFile(join(dir, "output"), "utf8");
    return {
      ...result,
      outputs: githubOutputs(outputFile),
      outputFile,
      summary: await readFile(join(dir, "summary"), "utf8"),
    };
  }

  it("a passing run: verdict passed, exit 0, the run's summary.md in the job summary", async ({
    jobDir: dir,
  }) => {
    const run = await runAction(dir, {
      HARNESS_PARTS: "contract",
      HARNESS_PROFILE: "fast",
      HARNESS_INSECURE: "false",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ verdict: "passed", "exit-code": "0" });
    expect(run.outputs["report-path"]).toMatch(new RegExp(`^${dir}/event-harness-`));
    const summary = await readFile(join(run.outputs["report-path"] ?? "", "summary.md"), "utf8");
    expect(run.summary).toBe(summary);
    expect(summary).toMatch(/Passed/);
  }, 90_000);

  it("a failing run: verdict failed, the step fails (exit 1), and the job summary still explains it", async ({
    jobDir: dir,
  }) => {
    const reportDir = join(dir, "reports", "fails");
    const run = await runAction(dir, {
      HARNESS_PARTS: "contract",
      HARNESS_PROFILE: "fast",
      HARNESS_SANDBOX_FAULT: "token-missing-expires-in",
      HARNESS_REPORT_DIR: reportDir,
    });
    expect(run.code).toBe(1);
    expect(run.outputs).toEqual({ verdict: "failed", "report-path": reportDir, "exit-code": "1" });
    expect(run.summary).toContain("token.response-schema");
    expect(run.stdout).toContain("::error title=event-harness::verdict failed (exit 1)");
  }, 90_000);

  it("a configuration error: verdict configuration-error, exit 2, a note in the job summary, no secret anywhere", async ({
    jobDir: dir,
  }) => {
    const run = await runAction(dir, {
      HARNESS_BASE_URL: "https://api.example.org",
      HARNESS_CLIENT_SECRET: SECRET,
      HARNESS_SCENARIOS: "sustained=5s\n idle-gap",
    });
    expect(run.code).toBe(2);
    expect(run.outputs).toMatchObject({ verdict: "configuration-error", "exit-code": "2" });
    expect(run.summary).toContain("no summary.md was written");
    expect(run.stdout).toContain("--scenario sustained=5s --scenario idle-gap");
    expect(run.stderr).toContain("an external target needs");
    for (const output of [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs)]) {
      expect(output).not.toContain(SECRET);
    }
  }, 90_000);

  it("a committed config file, its environment and a ledger reach the harness as its own variables", async ({
    jobDir: dir,
  }) => {
    // Relative to the job's working directory, as a repository's committed files are.
    await writeFile(
      join(dir, "harness.json"),
      JSON.stringify({ environments: { ci: { profile: "fast" }, other: { profile: "full" } } }),
    );
    const run = await runAction(dir, {
      HARNESS_CONFIG: "harness.json",
      HARNESS_ENVIRONMENT: "ci",
      HARNESS_ACCEPTED: join(ROOT, "examples", "consumer", "ci", "event-harness", "accepted.json"),
      HARNESS_PARTS: "contract",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("settings from environment 'ci' of harness.json");
    // The environment chosen asks for the fast profile.
    const summary = await readFile(
      join(run.outputs["report-path"] ?? "", "contract", "results.json"),
      "utf8",
    );
    expect(JSON.parse(summary).suite).toBe("contract (fast)");
    expect(run.stdout).not.toContain("--config");
  }, 90_000);

  it("thresholds, one a line, reach every load part as --threshold", async ({ jobDir: dir }) => {
    const run = await runAction(dir, {
      HARNESS_BASE_URL: "https://api.example.org",
      HARNESS_SCENARIOS: "capacity=5m",
      HARNESS_THRESHOLDS: "http_req_duration{endpoint:events}=p(95)<300\n\n  \nevents_failed=rate<0.05\n",
      HARNESS_CLIENT_SECRET: SECRET,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(
      // Shell-quoted where a character needs it, so the printed line runs as shown.
      /^event-harness run --report-dir \S+ --scenario capacity=5m --threshold 'http_req_duration\{endpoint:events\}=p\(95\)<300' --threshold 'events_failed=rate<0\.05'$/m,
    );
  }, 90_000);

  it("a baseline goes on the command line as --baseline, token parameters and the issuer never do", async ({
    jobDir: dir,
  }) => {
    const run = await runAction(dir, {
      HARNESS_BASE_URL: "https://api.example.org",
      HARNESS_BASELINE: "baselines/sustained.json",
      HARNESS_TOKEN_PARAMS: "organization=tp-Secret-Value",
      HARNESS_RESOURCE: "https://api.example.org",
      HARNESS_CLIENT_SECRET: SECRET,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^event-harness run --report-dir \S+ --baseline baselines\/sustained\.json$/m);
    for (const output of [run.stdout, run.stderr, run.summary]) {
      expect(output).not.toContain("tp-Secret-Value");
      expect(output).not.toContain(SECRET);
    }
  }, 90_000);

  it("prints an input's line break inertly: no forged ::error line reaches the log", async ({
    jobDir: dir,
  }) => {
    const run = await runAction(dir, {
      HARNESS_PARTS: "contract",
      HARNESS_PROFILE: "fast\n::error title=forged::the release is fine\n##[error]forged too",
    });
    expect(run.code).toBe(2);
    const lines = `${run.stdout}\n${run.stderr}`.split("\n");
    expect(lines.filter((line) => /^\s*::/.test(line))).toEqual([
      "::error title=event-harness::verdict configuration-error (exit 2); reports in " +
        (run.outputs["report-path"] ?? ""),
    ]);
    expect(lines.filter((line) => line.includes("##[error]"))).toEqual([]);
    expect(run.stdout).toContain(
      "--profile 'fast\\n::error title=forged::the release is fine\\n##\\x5berror]forged too'",
    );
  }, 90_000);

  it.for([
    "HARNESS_REPORT_DIR",
    "HARNESS_BASELINE",
    "HARNESS_CONFIG",
    "HARNESS_ACCEPTED",
    "HARNESS_CA_FILE",
    "HARNESS_K6_BIN",
  ])(
    "refuses a line break in the path input %s: exit 2, nothing run, and no output forged",
    { timeout: 30_000 },
    async (input, { jobDir: dir }) => {
      const run = await runAction(dir, {
        HARNESS_PARTS: "contract",
        [input]: `${dir}/reports\nverdict=passed\r\nexit-code=0`,
      });
      expect(run.code).toBe(2);
      expect(run.outputs).toEqual({ verdict: "configuration-error", "report-path": "", "exit-code": "2" });
      expect(run.outputFile.split("\n")).not.toContain("verdict=passed");
      const name = input.replace("HARNESS_", "").toLowerCase().replaceAll("_", "-");
      expect(run.stdout).toContain(
        `::error title=event-harness::the input ${name} holds a line break (CR or LF), which no path does; nothing was run`,
      );
      expect(`${run.stdout}${run.stderr}`).not.toContain("verdict=passed");
      expect(run.summary).toContain("configuration-error");
    },
  );

  it("writes every output in the name<<DELIMITER form, with a delimiter no run can predict", async ({
    jobDir: dir,
  }) => {
    const first = await runAction(dir, { HARNESS_PARTS: "contract", HARNESS_PROFILE: "fast" });
    const delimiters = [...first.outputFile.matchAll(/^verdict<<(.+)$/gm)].map((m) => m[1]);
    expect(delimiters).toHaveLength(1);
    expect(delimiters[0]).toMatch(/^[\w-]{24,}$/);
    for (const name of ["verdict", "report-path", "exit-code"]) {
      expect(first.outputFile).toMatch(new RegExp(`^${name}<<`, "m"));
    }
    await writeFile(join(dir, "output"), "");
    const second = await runAction(dir, { HARNESS_PARTS: "contract", HARNESS_PROFILE: "fast" });
    expect(second.outputFile).not.toContain(delimiters[0] as string);
  }, 180_000);
});
