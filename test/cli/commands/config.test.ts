// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../support/fixtures.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

const SECRET = "config-test-secret-5e4d3c2b1a";
const CLIENT = { clientId: "config-test-client", clientSecret: SECRET };

/** `config`: a sandbox and a config file naming it as environment 'local' (and 'elsewhere', a dead target). */
const it = test.extend("config", async ({ tmpDir, sandbox }) => {
  const target = await sandbox({ expiresIn: 5, clients: [CLIENT] });
  const file = join(tmpDir, "harness.json");
  await writeFile(
    file,
    JSON.stringify({
      defaults: { clientId: CLIENT.clientId, timeout: 4 },
      environments: {
        local: { authUrl: target.authUrl, baseUrl: target.baseUrl, clientSecret: "${LOCAL_SECRET}" },
        elsewhere: {
          authUrl: "http://127.0.0.1:9/auth",
          baseUrl: "http://127.0.0.1:9/api",
          clientId: "other",
        },
      },
    }),
  );
  return { file, sandbox: target };
});

async function writeConfig(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe("--config and --environment", () => {
  it("runs the contract suite against the environment it picks, saying which, with the secret from the environment", async ({
    tmpDir,
    config: { file, sandbox },
  }) => {
    const reports = join(tmpDir, "contract");
    const run = await runCliInProcess(
      [
        "contract",
        "--config",
        file,
        "-e",
        "local",
        "--only",
        "token.issued,bearer.missing",
        "--report-dir",
        reports,
      ],
      { LOCAL_SECRET: SECRET },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `event-harness: settings from environment 'local' of ${file} (flags and EVENT_API_* variables override it)`,
    );
    expect(run.stderr).toContain(`against ${sandbox.baseUrl} (token endpoint ${sandbox.tokenUrl}`);
    expect(run.stderr).toContain("Deadline: 4.0 s per request");
    expect(run.stdout).toMatch(/^Verdict: PASSED — 2 PASS/m);
    const results = await readFile(join(reports, "results.json"), "utf8");
    expect(`${run.stdout}${run.stderr}${results}`).not.toContain(SECRET);
  });

  it("puts flags and variables before the file: every target setting of 'elsewhere' is replaced", async ({
    tmpDir,
    config: { file, sandbox },
  }) => {
    const run = await runCliInProcess(
      [
        "contract",
        "--config",
        file,
        "-e",
        "elsewhere",
        "--base-url",
        sandbox.baseUrl,
        "--only",
        "token.issued,bearer.missing",
        "--report-dir",
        join(tmpDir, "override"),
      ],
      {
        EVENT_API_AUTH_URL: sandbox.authUrl,
        EVENT_API_CLIENT_ID: CLIENT.clientId,
        EVENT_API_CLIENT_SECRET: SECRET,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`against ${sandbox.baseUrl} (token endpoint ${sandbox.tokenUrl}`);
  });

  it("records the file and environment in run.json and summary.md", async ({ tmpDir }) => {
    const sandboxConfig = await writeConfig(
      tmpDir,
      "sandbox.json",
      JSON.stringify({ environments: { embedded: { profile: "fast", timeout: 5 } } }),
    );
    const reports = join(tmpDir, "run");
    const run = await runCliInProcess([
      "run",
      "--parts",
      "contract",
      "--config",
      sandboxConfig,
      "--report-dir",
      reports,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `against the embedded sandbox — not your API, settings from environment 'embedded' of ${sandboxConfig}`,
    );
    expect(run.stdout).toContain("Contract suite (fast profile)");
    const outcome = JSON.parse(await readFile(join(reports, "run.json"), "utf8")) as {
      target: { config?: unknown };
      parts: { command: string }[];
    };
    expect(outcome.target.config).toEqual({ file: sandboxConfig, environment: "embedded" });
    expect(outcome.parts[0]?.command).toContain(`--config ${sandboxConfig} --environment embedded`);
    expect(await readFile(join(reports, "summary.md"), "utf8")).toContain(
      `settings from environment \`embedded\` of \`${sandboxConfig}\``,
    );
  });

  it("is exit 2 for a literal secret, saying why and never printing it", async ({ tmpDir }) => {
    const literal = "Literal-Secret-In-File-77";
    const bad = await writeConfig(
      tmpDir,
      "literal.json",
      JSON.stringify({ environments: { a: { clientSecret: literal } } }),
    );
    const run = await runCliInProcess(["contract", "--config", bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("environments.a.clientSecret: a literal secret is refused");
    expect(`${run.stdout}${run.stderr}`).not.toContain(literal);
  });

  it("is exit 2 for a reference to an unset variable, naming it", async ({ config: { file } }) => {
    const run = await runCliInProcess(["verify-rotation", "--config", file, "-e", "local"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("refers to ${LOCAL_SECRET}, but LOCAL_SECRET is not set");
  });

  it("is exit 2 for an unknown key, naming the closest known one", async ({ tmpDir }) => {
    const typo = await writeConfig(
      tmpDir,
      "typo.json",
      JSON.stringify({ environments: { a: { baseUlr: "x" } } }),
    );
    const run = await runCliInProcess(["load", "sustained", "--config", typo]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("environments.a: unknown key 'baseUlr' (did you mean 'baseUrl'?)");
  });

  it("is exit 2 for malformed JSON, with its line and column", async ({ tmpDir }) => {
    const broken = await writeConfig(
      tmpDir,
      "broken.json",
      '{\n  "environments": {\n    "a": { "timeout": 5, }\n  }\n}\n',
    );
    const run = await runCliInProcess(["run", "--config", broken]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("broken.json: not valid JSON at line 3, column 26");
  });

  it("is exit 2 for an unknown environment, and for --environment without a file", async ({
    config: { file },
  }) => {
    const unknown = await runCliInProcess(["sandbox-rotate", "--config", file, "-e", "locl"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "has no environment 'locl' (did you mean 'local'?) (environments: local, elsewhere)",
    );
    const alone = await runCliInProcess(["contract", "-e", "local"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("give the file with --config FILE");
  });
});
