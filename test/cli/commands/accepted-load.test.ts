import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runCliInProcess, toolEnv } from "../../support/run-in-process.ts";

// A ledger entry for a load gate, in a real k6 run against the embedded sandbox.

/** A date an entry may name: within a year of today (a later one is refused). */
const IN_FORCE = new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10);

describe("--accepted, the ledger of accepted deviations", () => {
  it("waives a load gate: the run passes with the threshold shown WAIVED, but never one that accepted no event", async ({
    tmpDir: dir,
  }) => {
    const file = join(dir, "load.json");
    await writeFile(
      file,
      JSON.stringify({
        accepted: [{ id: "load.events_failed", reason: "known 5xx", ticket: "API-9", expires: IN_FORCE }],
      }),
    );
    const report = join(dir, "load");
    const run = await runCliInProcess(
      [
        "load",
        "sustained",
        "--rate",
        "10",
        "--duration",
        "2s",
        "--sandbox-fault",
        "events-500-one-in-seven",
        "--accepted",
        file,
        "--report-dir",
        report,
      ],
      toolEnv(),
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/~ WAIVED events_failed rate<0\.01/);
    expect(run.stdout).toMatch(/PASSED: thresholds held, 1 WAIVED/);
    expect(await readFile(join(report, "junit.xml"), "utf8")).toMatch(
      /<skipped message="WAIVED, threshold crossed/,
    );
    // Every event refused: the same waiver does not make a run the target accepted nothing from pass.
    const none = await runCliInProcess(
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
        join(dir, "load-none"),
      ],
      toolEnv(),
    );
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/FAILED: no event was accepted; thresholds held, 1 WAIVED/);
  }, 240_000);
});
