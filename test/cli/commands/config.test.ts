// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../../sandbox/index.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { runCli } from "../../support/run-cli.ts";

const SECRET = "config-test-secret-5e4d3c2b1a";
const CLIENT = { clientId: "config-test-client", clientSecret: SECRET };

let dir: string;
let sandbox: RunningSandbox;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "eah-config-cli-"));
  sandbox = await startSandbox({ port: 0, expiresIn: 5, clients: [CLIENT] });
  file = join(dir, "harness.json");
  await writeFile(
    file,
    JSON.stringify({
      defaults: { clientId: CLIENT.clientId, timeout: 4 },
      environments: {
        local: { authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientSecret: "${LOCAL_SECRET}" },
        elsewhere: {
          authUrl: "http://127.0.0.1:9/auth",
          baseUrl: "http://127.0.0.1:9/api",
          clientId: "other",
        },
      },
    }),
  );
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe("--config and --environment", () => {
  it("runs the contract suite against the environment it picks, saying which, with the secret from the environment", async () => {
    const reports = join(dir, "contract");
    const run = await runCli(
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

  it("puts flags and variables before the file: every target setting of 'elsewhere' is replaced", async () => {
    const run = await runCli(
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
        join(dir, "override"),
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

  it("records the file and environment in run.json and summary.md", async () => {
    const sandboxConfig = await writeConfig(
      "sandbox.json",
      JSON.stringify({ environments: { embedded: { profile: "fast", timeout: 5 } } }),
    );
    const reports = join(dir, "run");
    const run = await runCli([
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

  it("is exit 2 for a literal secret, saying why and never printing it", async () => {
    const literal = "Literal-Secret-In-File-77";
    const bad = await writeConfig(
      "literal.json",
      JSON.stringify({ environments: { a: { clientSecret: literal } } }),
    );
    const run = await runCli(["contract", "--config", bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("environments.a.clientSecret: a literal secret is refused");
    expect(`${run.stdout}${run.stderr}`).not.toContain(literal);
  });

  it("is exit 2 for a reference to an unset variable, naming it", async () => {
    const run = await runCli(["verify-rotation", "--config", file, "-e", "local"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("refers to ${LOCAL_SECRET}, but LOCAL_SECRET is not set");
  });

  it("is exit 2 for an unknown key, naming the closest known one", async () => {
    const typo = await writeConfig("typo.json", JSON.stringify({ environments: { a: { baseUlr: "x" } } }));
    const run = await runCli(["load", "sustained", "--config", typo]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("environments.a: unknown key 'baseUlr' (did you mean 'baseUrl'?)");
  });

  it("is exit 2 for malformed JSON, with its line and column", async () => {
    const broken = await writeConfig(
      "broken.json",
      '{\n  "environments": {\n    "a": { "timeout": 5, }\n  }\n}\n',
    );
    const run = await runCli(["run", "--config", broken]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("broken.json: not valid JSON at line 3, column 26");
  });

  it("is exit 2 for an unknown environment, and for --environment without a file", async () => {
    const unknown = await runCli(["sandbox-rotate", "--config", file, "-e", "locl"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "has no environment 'locl' (did you mean 'local'?) (environments: local, elsewhere)",
    );
    const alone = await runCli(["contract", "-e", "local"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("give the file with --config FILE");
  });
});
