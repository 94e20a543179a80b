import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/run-cli.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "eah-accepted-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function ledgerFile(name: string, entries: readonly object[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify({ accepted: entries }));
  return file;
}

const algNone = (expires: string) => ({
  id: "bearer.alg-none",
  reason: "legacy verifier",
  ticket: "API-7",
  expires,
});
const contract = (ledger: string, report: string, faults: readonly string[]) =>
  runCli([
    "contract",
    "--only",
    "bearer.alg-none",
    ...faults.flatMap((fault) => ["--sandbox-fault", fault]),
    "--accepted",
    ledger,
    "--report-dir",
    join(dir, report),
  ]);

describe("--accepted, the ledger of accepted deviations", () => {
  it("WAIVES a failing accepted check: exit 0, never a PASS, in every report", async () => {
    const run = await contract(await ledgerFile("in-force.json", [algNone("2999-12-31")]), "waived", [
      "bearer-alg-none",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}WAIVED +bearer\.alg-none +MUST .*\[WAIVED: accepted until 2999-12-31 \(API-7\): legacy verifier\]$/m,
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

  it("fails again once the entry has expired, saying so: exit 1", async () => {
    const run = await contract(await ledgerFile("expired.json", [algNone("2000-01-31")]), "expired", [
      "bearer-alg-none",
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {2}FAIL +bearer\.alg-none .*\[accepted until 2000-01-31, expired\]$/m);
    expect(run.stdout).toMatch(
      /EXPIRED +bearer\.alg-none: accepted until 2000-01-31, expired: it fails again/,
    );
  });

  it("calls an entry whose check passes stale: exit 0, asking to remove it", async () => {
    const run = await contract(await ledgerFile("stale.json", [algNone("2999-12-31")]), "stale", []);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}PASS +bearer\.alg-none/m);
    expect(run.stdout).toMatch(/STALE +bearer\.alg-none: passes now: remove the entry/);
  });

  it("refuses a malformed ledger before any request: exit 2 naming the entry", async () => {
    const file = await ledgerFile("malformed.json", [
      algNone("2999-12-31"),
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
    const run = await runCli(["contract", "--accepted", file, ...target], {
      EVENT_API_CLIENT_SECRET: "s3cret-value",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "entry 2 (lifetime.sliding): expires (YYYY-MM-DD) is required for MUST checks",
    );
  });

  it("takes the ledger from the config file, relative to it", async () => {
    await ledgerFile("from-config.json", [algNone("2999-12-31")]);
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ environments: { demo: { accepted: "from-config.json" } } }));
    const run = await runCli([
      "contract",
      "--only",
      "bearer.alg-none",
      "--sandbox-fault",
      "bearer-alg-none",
      "--config",
      config,
      "-e",
      "demo",
      "--report-dir",
      join(dir, "config-report"),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}WAIVED +bearer\.alg-none/m);
  });

  it("waives a load gate: the run passes with the threshold shown WAIVED", async () => {
    const file = await ledgerFile("load.json", [
      { id: "load.events_failed", reason: "known 5xx", ticket: "API-9", expires: "2999-12-31" },
    ]);
    const report = join(dir, "load");
    const run = await runCli(
      [
        "load",
        "sustained",
        "--rate",
        "10",
        "--duration",
        "2s",
        "--sandbox-fault",
        "events-5xx",
        "--accepted",
        file,
        "--report-dir",
        report,
      ],
      {},
      120_000,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/~ WAIVED events_failed rate<0\.01/);
    expect(run.stdout).toMatch(/PASSED: thresholds held, 1 WAIVED/);
    expect(await readFile(join(report, "junit.xml"), "utf8")).toMatch(
      /<skipped message="WAIVED, threshold crossed/,
    );
  });

  it("run: every part judged with the ledger, and one junit.xml at the root holding every part", async () => {
    const report = join(dir, "run");
    const run = await runCli(
      [
        "run",
        "--parts",
        "contract",
        "--profile",
        "fast",
        "--sandbox-fault",
        "bearer-alg-none",
        "--accepted",
        await ledgerFile("run.json", [algNone("2999-12-31")]),
        "--report-dir",
        report,
      ],
      {},
      120_000,
    );
    expect(run.code).toBe(0);
    const junit = await readFile(join(report, "junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuite name="contract: Bearer requirement"/);
    expect(junit).toMatch(/<skipped message="WAIVED: /);
    expect(junit).toMatch(/failures="0" errors="0" skipped="1"/);
  });
});
