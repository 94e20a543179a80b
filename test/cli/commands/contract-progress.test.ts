import path from "node:path";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** lifetime.sliding alone against a sandbox whose tokens last 3 s: it waits about 5 s, saying so as it goes. */
function sliding(dir: string, ...extra: string[]) {
  return runInProcess(contractCommand, [
    "--profile",
    "full",
    "--only",
    "lifetime.sliding",
    "--sandbox-expires-in",
    "3",
    "--report-dir",
    path.join(dir, extra.join("") || "plain"),
    ...extra,
  ]);
}

const progressLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("  … "));

describe("contract progress in a log", () => {
  it("off a terminal, prints at most one progress line every 30 s: one for a 5 s wait", async ({
    tmpDir,
  }) => {
    const run = await sliding(tmpDir);
    expect(run.code, run.stderr).toBe(0);
    expect(progressLines(run.stderr)).toEqual([
      expect.stringMatching(/^ {2}… lifetime\.sliding: 1 use so far: \d+ s to go$/),
    ]);
  }, 60_000);

  it("--quiet prints none", async ({ tmpDir }) => {
    const run = await sliding(tmpDir, "--quiet");
    expect(run.code, run.stderr).toBe(0);
    expect(progressLines(run.stderr)).toEqual([]);
    expect(run.stderr).not.toContain("\r");
  }, 60_000);
});
