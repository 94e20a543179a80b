// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { contractCommand } from "../../cli/commands/contract.ts";
import { loadCommand } from "../../cli/commands/load.ts";
import { runCommand } from "../../cli/commands/run.ts";
import { runOverrides } from "../../cli/run-overrides.ts";
import { it as base, describe, expect } from "../support/fixtures.ts";
import { markdownNodes, markdownTree } from "../support/markdown-tree.ts";
import { runInProcess } from "../support/run-in-process.ts";

// Every report of a run names what the user set over the harness's own choice or the config file: names, never values.
const SECRET = "overrides-client-secret-8c1f";
const CLIENT = { clientId: "overrides-client", clientSecret: SECRET };
const VALUE = "org-value-never-written-3b9e";
const FROM_CONFIG = "--timeout overrides timeout";
const GIVEN = ["--client-auth given (binding)", "--token-param org"];

/** A config file naming a sandbox of the test's own: its URLs and client, the secret as a reference, a timeout. */
const it = base.extend("config", async ({ sandbox: start, tmpDir }) => {
  const sandbox = await start({ clients: [CLIENT] });
  const config = join(tmpDir, "harness.json");
  await writeFile(
    config,
    JSON.stringify({
      environments: {
        local: {
          authUrl: sandbox.authUrl,
          baseUrl: sandbox.baseUrl,
          clientId: CLIENT.clientId,
          clientSecret: "${LOCAL_SECRET}",
          timeout: 4,
        },
      },
    }),
  );
  return config;
});

/** The inline code a Markdown reader sees in `markdown`. */
function codeIn(markdown: string): string[] {
  return markdownNodes(markdownTree(markdown)).flatMap((node) =>
    node.type === "inlineCode" ? [node.value] : [],
  );
}

const overridden = [
  "--config",
  "",
  "-e",
  "local",
  "--timeout",
  "5",
  "--client-auth",
  "post",
  "--token-param",
];
function args(config: string, extra: readonly string[], reportDir: string): string[] {
  const given = [...overridden];
  given[1] = config;
  return [...given, `org=${VALUE}`, ...extra, "--report-dir", reportDir];
}

describe("overrides are named in every report of a run", () => {
  it("contract: results.json and summary.md", async ({ tmpDir: dir, config }) => {
    const reports = join(dir, "contract");
    const run = await runInProcess(contractCommand, args(config, ["--only", "token.issued"], reports), {
      LOCAL_SECRET: SECRET,
    });
    expect(run.code, run.stderr).toBe(0);
    const results = await readFile(join(reports, "results.json"), "utf8");
    expect(JSON.parse(results).overrides).toEqual([FROM_CONFIG, ...GIVEN]);
    const summary = await readFile(join(reports, "summary.md"), "utf8");
    expect(codeIn(summary)).toEqual(expect.arrayContaining([FROM_CONFIG, ...GIVEN]));
    expect(results + summary + run.stdout + run.stderr).not.toContain(VALUE);
  });

  it("run: its stdout header, run.json and summary.md", async ({ tmpDir: dir, config }) => {
    const reports = join(dir, "run");
    const run = await runInProcess(
      runCommand,
      args(config, ["--parts", "contract", "--profile", "fast", "--quiet"], reports),
      { LOCAL_SECRET: SECRET },
    );
    expect(run.code, run.stderr).toBe(0);
    const header = run.stdout.split("\n")[0] ?? "";
    expect(header).toMatch(/^event-harness run /);
    expect(header).toContain(`overrides: ${[FROM_CONFIG, ...GIVEN].join(", ")}`);
    const record = JSON.parse(await readFile(join(reports, "run.json"), "utf8"));
    expect(record.overrides).toEqual([FROM_CONFIG, ...GIVEN]);
    const summary = await readFile(join(reports, "summary.md"), "utf8");
    expect(codeIn(summary)).toEqual(expect.arrayContaining([FROM_CONFIG, ...GIVEN]));
    const html = await readFile(join(reports, "index.html"), "utf8");
    expect(html).toContain(`<span>Overrides: ${[FROM_CONFIG, ...GIVEN].join(", ")}</span>`);
    // The contract part's own reports name them too.
    const part = JSON.parse(await readFile(join(reports, "contract", "results.json"), "utf8"));
    expect(part.overrides).toEqual([FROM_CONFIG, ...GIVEN]);
    expect(run.stdout + run.stderr + JSON.stringify(record) + summary).not.toContain(VALUE);
  }, 120_000);

  it("load: run.json and summary.md", async ({ tmpDir: dir, config }) => {
    const reports = join(dir, "load");
    const run = await runInProcess(
      loadCommand,
      ["sustained", ...args(config, ["--rate", "5", "--duration", "2s", "--quiet"], reports)],
      {
        LOCAL_SECRET: SECRET,
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const record = JSON.parse(await readFile(join(reports, "run.json"), "utf8"));
    expect(record.overrides).toEqual([FROM_CONFIG, ...GIVEN]);
    const summary = await readFile(join(reports, "summary.md"), "utf8");
    const row = summary.split("\n").find((line) => line.startsWith("| Overrides |")) ?? "";
    expect(codeIn(row)).toEqual([FROM_CONFIG, ...GIVEN]);
    expect(summary + JSON.stringify(record)).not.toContain(VALUE);
  }, 120_000);

  it("--allow-latency-change is one, and a run that overrides nothing lists none", () => {
    expect(runOverrides({}, { env: {} }, { allowLatencyChange: true })).toEqual(["--allow-latency-change"]);
    expect(runOverrides({}, { env: {} })).toEqual([]);
    expect(runOverrides({}, { env: { EVENT_API_CLIENT_AUTH: "basic" } })).toEqual([
      "--client-auth given (binding)",
    ]);
  });
});
