import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCommand } from "../../../cli/commands/contract.ts";
import { runInProcess } from "../../support/run-in-process.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "eah-contract-progress-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** lifetime.sliding alone against a sandbox whose tokens last 3 s: it waits about 5 s, saying so as it goes. */
function sliding(...extra: string[]) {
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
  it("off a terminal, prints at most one progress line every 30 s: one for a 5 s wait", async () => {
    const run = await sliding();
    expect(run.code, run.stderr).toBe(0);
    expect(progressLines(run.stderr)).toEqual([
      expect.stringMatching(/^ {2}… lifetime\.sliding: 1 use so far: \d+ s to go$/),
    ]);
  }, 60_000);

  it("--quiet prints none", async () => {
    const run = await sliding("--quiet");
    expect(run.code, run.stderr).toBe(0);
    expect(progressLines(run.stderr)).toEqual([]);
    expect(run.stderr).not.toContain("\r");
  }, 60_000);
});
