import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runCliInProcess } from "../../support/run-in-process.ts";

async function ledgerFile(dir: string, name: string, entries: readonly object[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify({ accepted: entries }));
  return file;
}

/** A date an entry may name: within a year of today (a later one is refused). */
const IN_FORCE = new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10);

// token.response-schema is a MUST check a ledger may waive (the authentication refusals may not be).
const responseSchema = (expires: string) => ({
  id: "token.response-schema",
  reason: "legacy gateway",
  ticket: "API-7",
  expires,
});
const contract = (ledger: string, report: string, faults: readonly string[]) =>
  runCliInProcess([
    "contract",
    "--only",
    "token.response-schema",
    ...faults.flatMap((fault) => ["--sandbox-fault", fault]),
    "--accepted",
    ledger,
    "--report-dir",
    report,
  ]);

describe("--accepted, the ledger of accepted deviations", () => {
  it("WAIVES a failing accepted check: exit 0, never a PASS, in every report", async ({ tmpDir: dir }) => {
    const ledger = await ledgerFile(dir, "in-force.json", [responseSchema(IN_FORCE)]);
    const run = await contract(ledger, join(dir, "waived"), ["token-type-mac"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^ {2}WAIVED +token\\.response-schema +MUST .*\\[WAIVED: accepted until ${IN_FORCE} \\(API-7\\): legacy gateway\\]$`,
        "m",
      ),
    );
    expect(run.stdout).toContain("Verdict: PASSED — 1 WAIVED (");
    const results = JSON.parse(await readFile(join(dir, "waived", "results.json"), "utf8"));
    expect(results.checks[0]).toMatchObject({
      status: "WAIVED",
      acceptance: { state: "waived", ticket: "API-7" },
    });
    expect(results.counts).toMatchObject({ WAIVED: 1, PASS: 0, FAIL: 0 });
    expect(await readFile(join(dir, "waived", "junit.xml"), "utf8")).toMatch(/<skipped message="WAIVED: /);
    expect(await readFile(join(dir, "waived", "summary.md"), "utf8")).toContain("### Accepted deviations");
  });

  it("fails again once the entry has expired, saying so: exit 1", async ({ tmpDir: dir }) => {
    const ledger = await ledgerFile(dir, "expired.json", [responseSchema("2000-01-31")]);
    const run = await contract(ledger, join(dir, "expired"), ["token-type-mac"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^ {2}FAIL +token\.response-schema .*\[accepted until 2000-01-31, expired\]$/m,
    );
    expect(run.stdout).toMatch(
      /EXPIRED +token\.response-schema: accepted until 2000-01-31, expired: it fails again/,
    );
  });

  it("calls an entry whose check passes stale: exit 0, asking to remove it", async ({ tmpDir: dir }) => {
    const ledger = await ledgerFile(dir, "stale.json", [responseSchema(IN_FORCE)]);
    const run = await contract(ledger, join(dir, "stale"), []);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}PASS +token\.response-schema/m);
    expect(run.stdout).toMatch(/STALE +token\.response-schema: passes now: remove the entry/);
  });

  it("refuses a malformed ledger before any request: exit 2 naming the entry", async ({ tmpDir: dir }) => {
    const file = await ledgerFile(dir, "malformed.json", [
      responseSchema(IN_FORCE),
      { id: "lifetime.sliding", reason: "r" },
    ]);
    // A complete target on a closed port: a request would end in exit 3, so exit 2 shows none was made.
    const target = [
      "--auth-url",
      "http://127.0.0.1:9",
      "--base-url",
      "http://127.0.0.1:9",
      "--client-id",
      "c",
    ];
    const run = await runCliInProcess(["contract", "--accepted", file, ...target], {
      EVENT_API_CLIENT_SECRET: "s3cret-value",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "entry 2 (lifetime.sliding): expires (YYYY-MM-DD) is required for MUST checks",
    );
  });

  it("takes the ledger from the config file, relative to it", async ({ tmpDir: dir }) => {
    await ledgerFile(dir, "from-config.json", [responseSchema(IN_FORCE)]);
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ environments: { demo: { accepted: "from-config.json" } } }));
    const run = await runCliInProcess([
      "contract",
      "--only",
      "token.response-schema",
      "--sandbox-fault",
      "token-type-mac",
      "--config",
      config,
      "-e",
      "demo",
      "--report-dir",
      join(dir, "config-report"),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}WAIVED +token\.response-schema/m);
  });

  it("run: every part judged with the ledger, and one junit.xml at the root holding every part", async ({
    tmpDir: dir,
  }) => {
    const report = join(dir, "run");
    const run = await runCliInProcess([
      "run",
      "--parts",
      "contract",
      "--profile",
      "fast",
      "--sandbox-fault",
      "token-type-mac",
      "--accepted",
      await ledgerFile(dir, "run.json", [responseSchema(IN_FORCE)]),
      "--report-dir",
      report,
    ]);
    expect(run.code).toBe(0);
    const junit = await readFile(join(report, "junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuite name="contract: Token issuance"/);
    expect(junit).toMatch(/<skipped message="WAIVED: /);
    expect(junit).toMatch(/failures="0" errors="0" skipped="1"/);
  });

  it("applies an entry bound to an environment in that environment only, and says so elsewhere", async ({
    tmpDir: dir,
  }) => {
    await ledgerFile(dir, "bound.json", [{ ...responseSchema(IN_FORCE), environment: "staging" }]);
    const config = join(dir, "config.json");
    // Both environments test the embedded sandbox: only the environment's name tells them apart.
    await writeFile(
      config,
      JSON.stringify({
        environments: { staging: { accepted: "bound.json" }, production: { accepted: "bound.json" } },
      }),
    );
    const inEnvironment = (environment: string) =>
      runCliInProcess([
        "contract",
        "--only",
        "token.response-schema",
        "--sandbox-fault",
        "token-type-mac",
        "--config",
        config,
        "-e",
        environment,
        "--report-dir",
        join(dir, environment),
      ]);
    const staging = await inEnvironment("staging");
    expect(staging.code).toBe(0);
    expect(staging.stdout).toMatch(/^ {2}WAIVED +token\.response-schema/m);
    const production = await inEnvironment("production");
    expect(production.code).toBe(1);
    expect(production.stdout).toMatch(
      /^ {2}FAIL +token\.response-schema .*\[not waived: the ledger's entry is bound to environment 'staging', and this run's is 'production'\]$/m,
    );
    expect(production.stdout).toMatch(
      /NOT APPLIED token\.response-schema: bound to environment 'staging', and this run's is 'production'/,
    );
    const results = JSON.parse(await readFile(join(dir, "production", "results.json"), "utf8"));
    expect(results.accepted).toMatchObject([{ state: "not-applied" }]);
  });

  it("does not apply an entry bound to a target to the embedded sandbox", async ({ tmpDir: dir }) => {
    const ledger = await ledgerFile(dir, "target.json", [
      { ...responseSchema(IN_FORCE), target: "https://api.staging.example.com" },
    ]);
    const run = await contract(ledger, join(dir, "embedded"), ["token-type-mac"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "NOT APPLIED token.response-schema: bound to target https://api.staging.example.com, and this run tested the embedded sandbox",
    );
  });
});
