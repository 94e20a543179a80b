import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect } from "vitest";
import type { CommandIo } from "../../cli/command.ts";
import { RUN_CLAIM_FILE } from "../../cli/report-dir.ts";
import { setUpRun } from "../../cli/run-setup.ts";
import { UsageError } from "../../core/index.ts";
import { it } from "../support/fixtures.ts";

function ioWith(env: NodeJS.ProcessEnv): CommandIo {
  return { stdout: new PassThrough(), stderr: new PassThrough(), env, signal: new AbortController().signal };
}

const CONTRACT = { command: "contract", defaultReportParent: "reports/contract", runTimeout: true } as const;
const ROTATION = {
  command: "verify-rotation",
  defaultReportParent: "reports/rotation",
  runTimeout: false,
} as const;

describe("setUpRun, the setup contract and verify-rotation share", () => {
  it("runs the command's own checks before the ledger is read or the report directory is made", async ({
    tmpDir: scratch,
  }) => {
    const reportDir = path.join(scratch, "reports");
    const ledger = path.join(scratch, "missing-ledger.json");
    const run = setUpRun({ "report-dir": reportDir, accepted: ledger }, ioWith({}), CONTRACT, () => {
      throw new UsageError("invalid-config", "the command's own check");
    });
    await expect(run).rejects.toThrow("the command's own check");
    expect(await readdir(scratch)).toEqual([]);
  });

  it("reads the ledger before it makes the report directory", async ({ tmpDir: scratch }) => {
    const reportDir = path.join(scratch, "reports");
    const ledger = path.join(scratch, "ledger.json");
    await writeFile(ledger, "not json");
    const run = setUpRun({ "report-dir": reportDir, accepted: ledger }, ioWith({}), ROTATION, () => {});
    await expect(run).rejects.toBeInstanceOf(UsageError);
    expect(await readdir(scratch)).toEqual(["ledger.json"]);
  });

  it("hands the embedded sandbox (no target) to the check and returns what it returned", async ({
    tmpDir: scratch,
  }) => {
    const reportDir = path.join(scratch, "reports");
    const setup = await setUpRun({ "report-dir": reportDir }, ioWith({}), ROTATION, (external) => ({
      external,
    }));
    expect(setup.external).toBeUndefined();
    expect(setup.vetted).toEqual({ external: undefined });
    expect(setup.reportDir).toContain("reports");
    expect(await readdir(scratch)).toEqual(["reports"]);
  });

  it("reads the run deadline for a command that has one, from the option or the environment", async ({
    tmpDir: scratch,
  }) => {
    const reportDir = path.join(scratch, "reports");
    const fromOption = await setUpRun(
      { "report-dir": reportDir, "run-timeout": "30" },
      ioWith({}),
      CONTRACT,
      () => {},
    );
    expect(fromOption.runTimeoutMs).toBe(30_000);
    const fromEnv = await setUpRun(
      { "report-dir": `${reportDir}-2` },
      ioWith({ EVENT_API_RUN_TIMEOUT: "45" }),
      CONTRACT,
      () => {},
    );
    expect(fromEnv.runTimeoutMs).toBe(45_000);
  });

  it("ignores the run deadline's environment variable for a command without one", async ({
    tmpDir: scratch,
  }) => {
    const reportDir = path.join(scratch, "reports");
    const setup = await setUpRun(
      { "report-dir": reportDir },
      ioWith({ EVENT_API_RUN_TIMEOUT: "not a number" }),
      ROTATION,
      () => {},
    );
    expect(setup.runTimeoutMs).toBeUndefined();
  });

  it("gives each run without --report-dir a fresh directory of its own under the default parent", async ({
    tmpDir: scratch,
  }) => {
    const parent = path.join(scratch, "reports", "contract");
    const spec = { ...CONTRACT, defaultReportParent: parent };
    const first = await setUpRun({}, ioWith({}), spec, () => {});
    const second = await setUpRun({}, ioWith({}), spec, () => {});
    expect(path.dirname(first.reportDir)).toBe(parent);
    expect(path.dirname(second.reportDir)).toBe(parent);
    expect(second.reportDir).not.toBe(first.reportDir);
    expect(path.basename(first.reportDir)).toMatch(/^\d{8}T\d{6}Z(-\d+)?$/);
    expect(await readdir(first.reportDir)).toEqual([RUN_CLAIM_FILE]);
  });
});
