import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runCliInProcess, toolEnv } from "../../support/run-in-process.ts";

// A ledger entry for a load gate, in a real k6 run against the embedded sandbox.

describe("--accepted, the ledger of accepted deviations", () => {
  it("waives a load gate: the run passes with the threshold shown WAIVED", async ({ tmpDir: dir }) => {
    const file = join(dir, "load.json");
    await writeFile(
      file,
      JSON.stringify({
        accepted: [{ id: "load.events_failed", reason: "known 5xx", ticket: "API-9", expires: "2999-12-31" }],
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
        "events-5xx",
        "--accepted",
        file,
        "--report-dir",
        report,
      ],
      toolEnv(),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/~ WAIVED events_failed rate<0\.01/);
    expect(run.stdout).toMatch(/PASSED \(1 WAIVED\)/);
    expect(await readFile(join(report, "junit.xml"), "utf8")).toMatch(
      /<skipped message="WAIVED, threshold crossed/,
    );
  }, 120_000);
});
