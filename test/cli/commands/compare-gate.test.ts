import { writeFile } from "node:fs/promises";
import path from "node:path";
import { compareCommand } from "../../../cli/commands/compare.ts";
import { loadCommand } from "../../../cli/commands/load.ts";
import { runCommand } from "../../../cli/commands/run.ts";
import type { LoadRecord } from "../../../reporting/compare/index.ts";
import { describe, expect, test } from "../../support/fixtures.ts";
import { loadRecord, steady } from "../../support/load-record-fixture.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** `file(record)`: writes a load record into the test's tmpDir and returns its path. */
const it = test.extend("file", async ({ tmpDir }) => {
  let written = 0;
  return async (record: unknown): Promise<string> => {
    written += 1;
    const name = path.join(tmpDir, `record-${written}.json`);
    await writeFile(name, JSON.stringify(record));
    return name;
  };
});

const compare = (...args: string[]) => runInProcess(compareCommand, args, {});

/** Sixty steady seconds; `tokenMs` per unit gives the token figure samples enough to be judged. */
const steadyRun = (seed: number, medianMs = 2, target: Partial<LoadRecord["target"]> = {}) =>
  loadRecord(seed, steady(60, medianMs), { target });

describe("compare's verdicts and exit codes", () => {
  it("says each outcome's exit code in --help of compare, load and run", async () => {
    // Help wraps to the terminal: read it as one line of words.
    const words = (text: string) => text.replace(/\s+/g, " ");
    const load = await runInProcess(loadCommand, ["--help"], {});
    expect(words(load.stdout)).toMatch(/comparison is UNCHANGED, IMPROVED, WAIVED or INCONCLUSIVE;/);
    expect(words(load.stdout)).toMatch(/or the comparison is INCONCLUSIVE with --fail-on inconclusive/);
    const run = await runInProcess(runCommand, ["--help"], {});
    expect(words(run.stdout)).toMatch(/REGRESSED fails \(INCONCLUSIVE too with --fail-on\s+inconclusive\)/);
    const help = await runInProcess(compareCommand, ["--help"], {});
    expect(words(help.stdout)).toMatch(
      /Exit codes: 0 UNCHANGED, IMPROVED, WAIVED or INCONCLUSIVE; 1 REGRESSED, INCONCLUSIVE with --fail-on\s+inconclusive/,
    );
  });

  it("exits 0 on an INCONCLUSIVE comparison, and 1 with --fail-on inconclusive", async ({ file }) => {
    // The median moves by about the change that matters (5 ms): its interval straddles it.
    const base = await file(steadyRun(1, 25));
    const candidate = await file(steadyRun(2, 30.1));
    const plain = await compare(base, candidate);
    expect(plain.stdout).toMatch(/Baseline comparison against .*: baseline INCONCLUSIVE/);
    expect(plain.code).toBe(0);
    const strict = await compare("--fail-on", "inconclusive", base, candidate);
    expect(strict.code).toBe(1);
    const wrong = await compare("--fail-on", "inconclusiv", base, candidate);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("did you mean 'inconclusive'");
  });

  it("shows a REGRESSED figure the ledger accepts as WAIVED, exit 0, and fails again once the entry expired", async ({
    file,
  }) => {
    const base = await file(steadyRun(1));
    const slow = await file(steadyRun(2, 40));
    const ledger = (expires: string) =>
      file({
        accepted: ["events.p50", "events.p95", "events.p99"].map((id) => ({
          id: `baseline.${id}`,
          reason: "slower storage, accepted for the migration",
          ticket: "API-7",
          expires,
        })),
      });
    const today = new Date().toISOString().slice(0, 10);
    const waived = await compare("--accepted", await ledger(today), base, slow);
    expect(waived.code, waived.stdout + waived.stderr).toBe(0);
    expect(waived.stdout).toMatch(/WAIVED\s+events latency p50 per 1\.0 s/);
    expect(waived.stdout).toMatch(/: baseline WAIVED \(/);
    expect(waived.stdout).toMatch(/WAIVED\s+baseline\.events\.p50: accepted until \d{4}-\d\d-\d\d \(API-7\)/);
    const expired = await compare("--accepted", await ledger("2020-01-01"), base, slow);
    expect(expired.code).toBe(1);
    expect(expired.stdout).toContain("[accepted until 2020-01-01, expired]");
  });
});

describe("a baseline belongs to a target", () => {
  it("refuses, exit 2, the embedded sandbox against a deployed API and other sandbox faults", async ({
    file,
  }) => {
    const embedded = await file(steadyRun(1));
    const deployed = await file(steadyRun(2, 2, { embedded: false, origin: "https://api.example.com" }));
    const againstDeployed = await compare(embedded, deployed);
    expect(againstDeployed.code).toBe(2);
    expect(againstDeployed.stderr).toContain(
      "cannot compare runs against different targets (the baseline ran against the embedded sandbox, this run against a deployed API (https://api.example.com))",
    );
    const faulty = await file(steadyRun(3, 2, { sandbox: { latencyMs: 0, faults: ["slow"] } }));
    const faults = await compare(embedded, faulty);
    expect(faults.code).toBe(2);
    expect(faults.stderr).toContain("sandbox faults none → slow");
    const limited = await file(
      steadyRun(4, 2, { sandbox: { latencyMs: 0, faults: [], throughputLimit: 200 } }),
    );
    const capacities = await compare(embedded, limited);
    expect(capacities.code).toBe(2);
    expect(capacities.stderr).toContain("sandbox throughput limit none → 200 events/s");
  });

  it("refuses another sandbox latency, unless the slowdown is simulated on purpose (--allow-latency-change)", async ({
    file,
  }) => {
    // A baseline taken while the sandbox added 300 ms would read any later run IMPROVED.
    const slow = await file(steadyRun(1, 302, { sandbox: { latencyMs: 300, faults: [] } }));
    const plain = await file(steadyRun(2, 2, { sandbox: { latencyMs: 0, faults: [] } }));
    const refused = await compare(slow, plain);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("sandbox latency 300 ms → 0 ms");
    expect(refused.stderr).toContain("--allow-latency-change");
    const demo = await compare(plain, slow, "--allow-latency-change");
    expect(demo.code).toBe(1);
    expect(demo.stdout).toContain(
      "the sandbox added 0 ms to the baseline's answers and 300 ms to this run's: the latency figures measure that",
    );
  });

  it("names another origin, other instances and another k6 in the report, and compares", async ({ file }) => {
    const blue = loadRecord(1, steady(60), {
      target: { embedded: false, origin: "https://blue.example.com" },
    });
    const green = loadRecord(2, steady(60), {
      target: { embedded: false, origin: "https://green.example.com" },
      instances: 2,
      k6: "v2.3.0",
    });
    const run = await compare(await file(blue), await file(green));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "Note: another origin: https://blue.example.com → https://green.example.com",
    );
    expect(run.stdout).toContain("Note: instances 1 → 2");
    expect(run.stdout).toContain("Note: k6 v2.2.0 → v2.3.0");
  });
});

describe("a baseline file is validated before it is read", () => {
  const tampered: Array<[string, (record: Record<string, unknown>) => unknown, string]> = [
    ["a count of 1.5", (r) => withUnit(r, { token: [[100, 1.5]] }), "units[0].token[0][1]"],
    ["a negative count", (r) => withUnit(r, { accepted: -1 }), "units[0].accepted"],
    ["a bucket past a day", (r) => withUnit(r, { events: [[5000, 1]] }), "units[0].events[0][0]"],
    ["events: null", (r) => withUnit(r, { events: null }), "units[0].events"],
    ["a warm-up longer than the run", (r) => ({ ...r, warmUpUnits: 1000 }), "warmUpUnits"],
    [
      "an unknown scenario",
      (r) => ({ ...r, settings: { ...(r.settings as object), scenario: "x" } }),
      "settings.scenario",
    ],
  ];

  it.for(tampered)("refuses %s with exit 2, naming the field", async ([_label, tamper, field], { file }) => {
    const good = steadyRun(1) as unknown as Record<string, unknown>;
    const run = await compare(await file(tamper(good)), await file(steadyRun(2)));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(`is no usable load baseline: ${field.replace(/[[\].]/g, "\\$&")}: `),
    );
  });

  it("refuses a record whose units span no plausible run, with exit 2 and a sentence", async ({ file }) => {
    // 60 units of a day each: 60 days, longer than any run the harness records.
    const days = { ...steadyRun(1), unitMs: 86_400_000 };
    const run = await compare(await file(days), await file({ ...steadyRun(2), unitMs: 86_400_000 }));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /is no usable load baseline: units: 60 units of 24h span 60 days, longer than any run the harness records \(at most 14 days\): not a record of a load run/,
    );
  });

  it("exits 3 saying it was interrupted, when a signal came before the comparison was judged", async ({
    file,
  }) => {
    const stop = new AbortController();
    stop.abort(new Error("received SIGTERM"));
    const run = await runInProcess(
      compareCommand,
      [await file(steadyRun(1)), await file(steadyRun(2))],
      {},
      stop.signal,
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "event-harness compare: interrupted (received SIGTERM) before the comparison was judged\n",
    );
  });

  it("refuses a baseline of an older format, saying to record it again", async ({ file }) => {
    const old = { ...(steadyRun(1) as object), format: "event-harness-load-record/1" };
    const run = await compare(await file(old), await file(steadyRun(2)));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("record the baseline again");
  });
});

function withUnit(record: Record<string, unknown>, change: Record<string, unknown>): unknown {
  const [first, ...rest] = record.units as object[];
  return { ...record, units: [{ ...first, ...change }, ...rest] };
}
