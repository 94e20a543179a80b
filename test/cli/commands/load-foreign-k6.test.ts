import { chmod, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll } from "vitest";
import { loadCommand } from "../../../cli/commands/load.ts";
import { ensureK6, k6Identity } from "../../../k6-tooling/binary/k6-binary.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { runInProcess } from "../../support/run-in-process.ts";

/** The harness's own k6, found (or built) once before the file's tests: the wrapper below runs it. */
let real: string;

/**
 * A k6 as a user may bring one (K6_BIN): the harness's own build behind a wrapper whose `k6 version` lists no
 * extension, so the harness treats it as a k6 without k6/x/harness and harness-samples and takes every fallback.
 */
beforeAll(async () => {
  real = (await ensureK6({ env: process.env, stderr: process.stderr })).path;
}, 600_000);
const it = base.extend("foreignK6", { scope: "file" }, async ({ fileDir }) => {
  const foreignK6 = path.join(fileDir, "k6");
  await writeFile(
    foreignK6,
    `#!/bin/sh\nif [ "$1" = version ]; then "${real}" version | grep -v -e Extensions: -e tools/k6; exit 0; fi\nexec "${real}" "$@"\n`,
  );
  await chmod(foreignK6, 0o755);
  return foreignK6;
});

describe("load with a k6 without the harness's extensions", () => {
  it("is seen as one", async ({ foreignK6 }) => {
    expect(await k6Identity(foreignK6)).toMatchObject({ harnessExtension: false, samplesOutput: false });
  });

  it("passes with unique references from k6/execution and keeps its baseline record from k6's CSV output", async ({
    tmpDir: workDir,
    foreignK6,
  }) => {
    const reportDir = path.join(workDir, "report");
    const run = await runInProcess(
      loadCommand,
      ["sustained", "--rate", "30", "--duration", "3s", "--vus", "6", "--report-dir", reportDir],
      { PATH: process.env.PATH, HOME: process.env.HOME, K6_BIN: foreignK6 },
    );
    // A repeated reference would be refused (409) by the sandbox and fail the run.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("not accepted 0");
    const files = await readdir(reportDir);
    expect(files).toContain("baseline.json");
    // The CSV samples served only the record and are gone once it is written.
    expect(files.filter((f) => f.startsWith("samples."))).toEqual([]);
  }, 120_000);
});
